import type { ResolvedCliIo } from "./cli-io.js";
import { loadModule } from "../load-module.js";
import type * as CreateRendererModule from "./create-renderer.js";
import type * as JsonRendererModule from "./json-renderer.js";
import type * as RunTurnCommandModule from "./run-turn-command.js";
import type { TextOutput } from "./create-renderer.js";
import type { TurnCommand } from "./run-turn-command.js";
import type { EventRenderer } from "./event-renderer.js";
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
  prepare(): Promise<TurnCommand["open"]>;
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
  const open = await action.prepare();
  // the turn machinery (client, runner, renderers) loads when a turn runs, not when help is printed
  const [{ runTurnCommand }, createRenderer] = await Promise.all([
    loadModule<typeof RunTurnCommandModule>(
      new URL("./run-turn-command.js", import.meta.url),
      () => import("./run-turn-command.js"),
    ),
    loadRenderer(options, io, action.output),
  ]);
  return runTurnCommand({ command: action.command, promptArgument, options, io, createRenderer, open });
}

/** Loads only the renderer the output needs: `--json` loads none of the human output's machinery. */
async function loadRenderer(
  options: { json: boolean; color: boolean },
  io: ResolvedCliIo,
  output: TextOutput,
): Promise<() => EventRenderer> {
  if (options.json) {
    const { JsonRenderer } = await loadModule<typeof JsonRendererModule>(
      new URL("./json-renderer.js", import.meta.url),
      () => import("./json-renderer.js"),
    );
    return () => new JsonRenderer(io.stdout, io.stderr);
  }
  const { createRenderer } = await loadModule<typeof CreateRendererModule>(
    new URL("./create-renderer.js", import.meta.url),
    () => import("./create-renderer.js"),
  );
  return () => createRenderer(options, io, output);
}
