/**
 * The inputs every harness's call takes and checks the same way before anything starts: the prompt, the
 * working directory and local image files. `agent` names the harness in messages (`Codex`, `Claude Code`).
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { RennetError } from "../errors.js";
import { describeValue } from "./option-keys.js";

/** A call option that is not one the agent accepts; thrown before anything starts. */
export class InvalidTurnInputError extends RennetError<
  "IMAGE_UNREADABLE" | "REASONING_SUMMARY_INVALID" | "RESUME_ID_INVALID" | "PROMPT_EMPTY" | "CWD_INVALID"
> {
  override readonly name = "InvalidTurnInputError";
}

/**
 * The prompt, checked to hold text: missing, empty or whitespace-only is `PROMPT_EMPTY` (a full-access turn is
 * not started for nothing). Pure.
 */
export function checkPrompt(value: unknown, agent: string): string {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (value !== undefined && typeof value !== "string")
    throw new InvalidTurnInputError(
      "PROMPT_EMPTY",
      `prompt must be text, got ${describeValue(value)}: pass the prompt as a string`,
    );
  throw new InvalidTurnInputError(
    "PROMPT_EMPTY",
    value === undefined
      ? `prompt is missing: pass { prompt: "…" } with the task for ${agent}`
      : `prompt is empty (nothing but whitespace): pass the task for ${agent} as text`,
  );
}

/**
 * The working directory, checked to be an existing directory on this machine, as an absolute path (relative to
 * `base`). Anything else is `CWD_INVALID` naming the path and the fix, before a full-access turn could start
 * somewhere else.
 */
export function checkCwd(value: unknown, base: string, agent: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidTurnInputError(
      "CWD_INVALID",
      `cwd ${JSON.stringify(value) ?? String(value)} is not a directory path: give the directory ${agent} should ` +
        "work in, or leave cwd out to use the current directory",
    );
  }
  const dir = path.resolve(base, value);
  let problem: string;
  try {
    if (statSync(dir).isDirectory()) return dir;
    problem = `not a directory; pass the directory ${agent} should work in, not a file`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problem =
      code === "ENOENT" || code === "ENOTDIR"
        ? "no such directory; create it or pass an existing one"
        : `cannot be read (${code ?? "error"})`;
  }
  throw new InvalidTurnInputError("CWD_INVALID", `cwd ${value}: ${problem} (${dir})`);
}

/**
 * The images of a turn as absolute paths (relative ones against `cwd`), each checked to be a readable file
 * before anything is spawned.
 */
export function resolveImages(images: readonly string[], cwd: string): string[] {
  return images.map((image) => {
    const file = path.resolve(cwd, image);
    let problem: string | null = null;
    try {
      if (!statSync(file).isFile()) problem = "is not a file";
      else accessSync(file, constants.R_OK);
    } catch (error) {
      problem ??= (error as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : "cannot be read";
    }
    if (problem !== null)
      throw new InvalidTurnInputError("IMAGE_UNREADABLE", `image ${image}: ${problem} (${file})`);
    return file;
  });
}
