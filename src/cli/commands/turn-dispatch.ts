import { loadModule } from "../../load-module.js";
import type { ResolvedCliIo } from "../cli-io.js";
import type * as CreateRendererModule from "../create-renderer.js";
import type { RendererFactory } from "../event-renderer.js";
import type * as JsonRendererModule from "../json-renderer.js";
import type { RunTurnCommand } from "../turn-action.js";
import type { RawTurnOptions } from "../turn-options.js";

/**
 * The dispatch of a turn-running command (`codex run`, `codex exec`): loads the command's action module (client,
 * runner) and the one renderer its output needs, in parallel, when the command runs, then runs it. `--json`
 * loads none of the human output's machinery (colours, spinner, text layout): the stream goal of
 * docs/performance.md counts every module a `--json` turn loads.
 */
export async function dispatchTurnCommand<Raw extends RawTurnOptions>(
  parsed: { argument: string | undefined; options: Raw },
  io: ResolvedCliIo,
  loadAction: () => Promise<{ runTurn: RunTurnCommand<Raw> }>,
): Promise<number> {
  const { argument, options } = parsed;
  const [action, renderer] = await Promise.all([loadAction(), loadRenderer(options.json === true)]);
  return action.runTurn(argument ?? "", options, io, renderer);
}

async function loadRenderer(json: boolean): Promise<RendererFactory> {
  if (json) {
    const { JsonRenderer } = await loadModule<typeof JsonRendererModule>(
      new URL("../json-renderer.js", import.meta.url),
      () => import("../json-renderer.js"),
    );
    return (_options, io) => new JsonRenderer(io.stdout, io.stderr);
  }
  const { createRenderer } = await loadModule<typeof CreateRendererModule>(
    new URL("../create-renderer.js", import.meta.url),
    () => import("../create-renderer.js"),
  );
  return createRenderer;
}
