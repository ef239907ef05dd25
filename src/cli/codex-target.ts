import { isAbsolute, resolve } from "node:path";
import type { CodexLaunchTarget } from "../codex/turn-runner.js";

/** Where the chosen Codex came from, for messages. */
export type CodexTargetSource = "flag" | "env" | "path";

export type CodexTargetResolution =
  | { type: "found"; target: CodexLaunchTarget; source: CodexTargetSource }
  /** No usable Codex: the CLI exits with code 3 (reserved for discovery; not produced yet). */
  | { type: "unavailable"; message: string };

export interface CodexTargetRequest {
  /** `--codex-bin`: used exactly as given, no discovery, no probe. */
  codexBin?: string;
  env: NodeJS.ProcessEnv;
  /** Relative paths are resolved against this directory (the user's shell directory, not `--cwd`). */
  cwd: string;
}

/**
 * A path with a directory part is made absolute against `cwd`: the child is started in `--cwd`, so a relative
 * path would otherwise be looked up from there. A bare name (`codex`) is left for the PATH lookup. Pure.
 */
export function absolutizeCommand(command: string, cwd: string): string {
  if (isAbsolute(command)) return command;
  if (!command.includes("/") && !command.includes("\\")) return command;
  return resolve(cwd, command);
}

/**
 * Which Codex `rennet` runs. The single seam that discovery (issue 5) replaces: today `--codex-bin`, then
 * `RENNET_CODEX_BIN`, then `codex` on PATH; none of them is probed (a missing one fails the turn with a
 * `spawn` failure, exit code 1).
 */
export async function resolveCodexTarget(request: CodexTargetRequest): Promise<CodexTargetResolution> {
  if (request.codexBin !== undefined) {
    return {
      type: "found",
      target: { command: absolutizeCommand(request.codexBin, request.cwd) },
      source: "flag",
    };
  }
  const fromEnv = request.env.RENNET_CODEX_BIN;
  if (fromEnv !== undefined && fromEnv !== "") {
    return { type: "found", target: { command: absolutizeCommand(fromEnv, request.cwd) }, source: "env" };
  }
  return { type: "found", target: { command: "codex" }, source: "path" };
}
