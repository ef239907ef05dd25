import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { RennetError } from "../errors.js";

/** The reasoning summary modes codex accepts on `turn/start` (`summary`). */
export const REASONING_SUMMARIES = ["auto", "concise", "detailed", "none"] as const;
export type ReasoningSummary = (typeof REASONING_SUMMARIES)[number];

/** A call option that is not one codex accepts; thrown before anything starts. */
export class InvalidTurnInputError extends RennetError<"IMAGE_UNREADABLE" | "REASONING_SUMMARY_INVALID"> {
  override readonly name = "InvalidTurnInputError";
}

/** `reasoningSummary` checked against {@link REASONING_SUMMARIES}. Pure. */
export function validateReasoningSummary(value: unknown): ReasoningSummary {
  if (typeof value === "string" && (REASONING_SUMMARIES as readonly string[]).includes(value))
    return value as ReasoningSummary;
  throw new InvalidTurnInputError(
    "REASONING_SUMMARY_INVALID",
    `reasoningSummary ${JSON.stringify(value)} is not one of ${REASONING_SUMMARIES.join(", ")}`,
  );
}

/**
 * The images of a turn as absolute paths (relative ones against `cwd`), each checked to be a readable file
 * before anything is spawned: codex reads them itself as `localImage` inputs.
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
