import type { ResolvedCliIo } from "./cli-io.js";
import type { TextOutput } from "./create-renderer.js";
import type { TurnCommand } from "./run-turn-command.js";
import { type RawTurnOptions, validateTurnOptions } from "./turn-options.js";

/** What a turn-running command (`codex run`, `codex exec`) declares about its action. */
export interface TurnAction {
  /** `rennet codex run`, for messages. */
  command: string;
  /** What stdout carries without `--json`. */
  output: TextOutput;
  /**
   * Checks the command's own flags, after the shared ones passed, and returns how to start its session. Throws
   * `UsageError` for a bad command line.
   */
  prepare(): Promise<TurnCommand["start"]>;
}

/**
 * The action of a turn-running command: validates the shared turn flags, then the command's own
 * ({@link TurnAction.prepare}), then runs the turn with the renderer for its output. Resolves with the exit code.
 */
export async function runTurnAction(
  action: TurnAction,
  promptArgument: string,
  raw: RawTurnOptions,
  io: ResolvedCliIo,
): Promise<number> {
  const options = await validateTurnOptions(raw, io.cwd, action.command);
  const start = await action.prepare();
  // the turn machinery (client, runner, renderers) loads when a turn runs, not when help is printed
  const [{ runTurnCommand }, { createRenderer }] = await Promise.all([
    import("./run-turn-command.js"),
    import("./create-renderer.js"),
  ]);
  return runTurnCommand({
    command: action.command,
    promptArgument,
    options,
    io,
    createRenderer: () => createRenderer(options, io, action.output),
    start,
  });
}
