import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  createCodex,
  type CodexClient,
  type CodexClientOptions,
} from "../../src/codex/client/codex-client.js";
import { createCodexHome, type CodexHomeOptions } from "../../src/testkit/codex-home.js";
import {
  startLoopbackModelServer,
  type LoopbackModelServer,
} from "../../src/testkit/loopback-model-server.js";
import type { ModelScenario } from "../../src/testkit/model-response-plan.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import { spawnStdioChild } from "../../src/process/stdio-launcher.js";
import { TEST_CODEX_BIN } from "./codex-bin.js";

export interface RealCodexFixture {
  model: LoopbackModelServer;
  /** The throw-away CODEX_HOME. */
  home: string;
  /** A throw-away working directory. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  client: CodexClient;
  /** Starts the codex child and records what is sent to it (for {@link sent}); also for the CLI's `io`. */
  launcher: Launcher;
  /** The params of every request or notification `method` the client sent to codex, in order. */
  sent(method: string): unknown[];
  dispose(): Promise<void>;
}

/** {@link spawnStdioChild}, recording every frame written to the child's stdin into `frames`. */
function recordingLauncher(frames: Array<{ method?: unknown; params?: unknown }>): Launcher {
  return (spec) => {
    const child = spawnStdioChild(spec);
    const send = child.transport.send.bind(child.transport);
    child.transport.send = (frame) => {
      frames.push(frame as { method?: unknown; params?: unknown });
      return send(frame);
    };
    return child;
  };
}

/**
 * The pinned codex, offline: a loopback model, a throw-away CODEX_HOME (see `createCodexHome` for why each
 * setting is there: no network, no login shell, no endless reconnects) and a client using both.
 */
export async function startRealCodex(
  scenario: ModelScenario,
  clientOptions: Omit<CodexClientOptions, "codex" | "env"> = {},
  homeOptions: Omit<CodexHomeOptions, "modelUrl"> = {},
): Promise<RealCodexFixture> {
  const model = await startLoopbackModelServer({ scenario });
  const codexHome = await createCodexHome({ ...homeOptions, modelUrl: model.url });
  const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-cwd-"));
  // HOME too: older codex (0.100 measured) ignores `allow_login_shell = false` and runs commands with
  // `bash -lc`, which would read (and may hang in) the machine's own ~/.profile
  const env = codexHome.env({ ...process.env, HOME: codexHome.dir });
  const frames: Array<{ method?: unknown; params?: unknown }> = [];
  const launcher = recordingLauncher(frames);
  const client = createCodex({
    launcher,
    ...clientOptions,
    codex: TEST_CODEX_BIN,
    env,
  });
  return {
    model,
    home: codexHome.dir,
    cwd,
    env,
    client,
    launcher,
    sent: (method) => frames.filter((frame) => frame.method === method).map((frame) => frame.params),
    async dispose() {
      await model.close();
      await codexHome.cleanup();
      await rm(cwd, { recursive: true, force: true });
    },
  };
}
