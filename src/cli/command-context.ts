import type { Command } from "commander";
import type { ResolvedCliIo } from "./cli-io.js";

/** What a command's action gets from `main()`. */
export interface CommandContext {
  readonly io: ResolvedCliIo;
  /** Records the exit code the command decided; `main()` returns it. */
  setExitCode(code: number): void;
}

/**
 * Adds one subcommand to `parent` (e.g. `codex run` to `codex`). Actions may throw `UsageError` (exit 2) or
 * `CodexUnavailableError` (exit 3); anything else they want to report, they print and `setExitCode`.
 */
export type RegisterCommand = (parent: Command, context: CommandContext) => void;
