import type { ResolvedCliIo } from "./cli-io.js";
import type { RendererFactory, TextOutput } from "./event-renderer.js";
import type { TerminalApprovalsFactory } from "./terminal-approvals.js";
import { runTurnCommand, type TurnOpener } from "./run-turn-command.js";
import type { CliHarnessWords } from "./turn-option-specs.js";
import { type RawTurnOptions, type TurnOptions, validateTurnOptions } from "./turn-options.js";

/** What a turn-running command (`codex run`, `claude exec`, …) declares about its action. */
export interface TurnAction {
  /** `rennet codex run`, for messages. */
  command: string;
  /** The harness it drives, as its flags, messages and renderer name it. */
  words: CliHarnessWords;
  /** What stdout carries without `--json`. */
  output: TextOutput;
  /**
   * Checks the command's own flags, after the shared ones passed as `options`, and returns how to start its
   * session. Throws `UsageError` for a bad command line.
   */
  prepare(options: TurnOptions): Promise<TurnOpener>;
}

/** How a turn command's action module runs it (see {@link turnCommand}). */
export type RunTurnCommand<Raw extends RawTurnOptions> = (
  promptArgument: string,
  raw: Raw,
  io: ResolvedCliIo,
  output: TurnOutput,
) => Promise<number>;

/** What the dispatch loaded for a turn's output: its renderer, and for `--ask` the terminal's prompts. */
export interface TurnOutput {
  renderer: RendererFactory;
  /** Throws when called without `--ask`: the dispatch loads the prompts only for it. */
  askTerminal: TerminalApprovalsFactory;
}

/** The run function of a turn-running command whose action `describe` builds from its flags. */
export function turnCommand<Raw extends RawTurnOptions>(
  describe: (raw: Raw, io: ResolvedCliIo) => TurnAction,
): RunTurnCommand<Raw> {
  return (promptArgument, raw, io, output) =>
    runTurnAction(describe(raw, io), promptArgument, raw, io, output);
}

/**
 * The action of a turn-running command: validates the shared turn flags, then the command's own
 * ({@link TurnAction.prepare}), then runs the turn with `output`'s renderer. Resolves with the exit code.
 */
async function runTurnAction(
  action: TurnAction,
  promptArgument: string,
  raw: RawTurnOptions,
  io: ResolvedCliIo,
  output: TurnOutput,
): Promise<number> {
  const options = await validateTurnOptions(raw, io.cwd, action.command, action.words);
  const open = await action.prepare(options);
  const createRenderer = (): ReturnType<RendererFactory> =>
    output.renderer({ ...options, harness: action.words.harness }, io, action.output);
  return runTurnCommand({
    command: action.command,
    executable: action.words.executable,
    promptArgument,
    options,
    io,
    createRenderer,
    open,
    askTerminal: output.askTerminal,
  });
}
