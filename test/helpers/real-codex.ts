import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createCodex, type CodexClient, type CodexClientOptions } from "../../src/codex/codex-client.js";
import { createCodexHome, type CodexHomeOptions } from "../../src/testkit/codex-home.js";
import {
  startLoopbackModelServer,
  type LoopbackModelServer,
} from "../../src/testkit/loopback-model-server.js";
import type { ModelScenario } from "../../src/testkit/model-response-plan.js";
import { TEST_CODEX_BIN } from "./codex-bin.js";

export interface RealCodexFixture {
  model: LoopbackModelServer;
  /** The throw-away CODEX_HOME. */
  home: string;
  /** A throw-away working directory. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  client: CodexClient;
  dispose(): Promise<void>;
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
  const env = codexHome.env();
  const client = createCodex({ ...clientOptions, codex: TEST_CODEX_BIN, env });
  return {
    model,
    home: codexHome.dir,
    cwd,
    env,
    client,
    async dispose() {
      await model.close();
      await codexHome.cleanup();
      await rm(cwd, { recursive: true, force: true });
    },
  };
}
