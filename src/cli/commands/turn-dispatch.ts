import { loadModule } from "../../load-module.js";
import type * as CreateRendererModule from "../create-renderer.js";
import type { RendererFactory } from "../event-renderer.js";
import type * as JsonRendererModule from "../json-renderer.js";

/**
 * The dispatch of a turn-running command (`codex run`, `codex exec`): loads the command's action (client,
 * runner) and the one renderer its output needs, in parallel, when the command runs, then runs it. `--json`
 * loads none of the human output's machinery (colours, spinner, text layout): the stream goal of
 * docs/performance.md counts every module a `--json` turn loads.
 */
export async function dispatchTurnCommand<Action>(
  json: boolean | undefined,
  loadAction: () => Promise<Action>,
  run: (action: Action, renderer: RendererFactory) => Promise<number>,
): Promise<number> {
  const [action, renderer] = await Promise.all([loadAction(), loadRenderer(json === true)]);
  return run(action, renderer);
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
