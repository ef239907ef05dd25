import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createCodex, type CodexClient } from "../../src/codex/codex-client.js";
import { startLoopbackModelServer, type LoopbackModelServer } from "../../src/testkit/loopback-model-server.js";
import type { ModelScenario } from "../../src/testkit/model-response-plan.js";
import { PINNED_CODEX_BIN } from "./codex-bin.js";

export interface RealCodexFixture {
  model: LoopbackModelServer;
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  client: CodexClient;
  dispose(): Promise<void>;
}

/** A throw-away CODEX_HOME pointing the pinned codex at a loopback model, plus a client using it. */
export async function startRealCodex(scenario: ModelScenario): Promise<RealCodexFixture> {
  const model = await startLoopbackModelServer({ scenario });
  const home = await mkdtemp(path.join(os.tmpdir(), "rennet-home-"));
  const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-cwd-"));
  await writeFile(
    path.join(home, "config.toml"),
    [
      'model = "mock-model"',
      'model_provider = "mock"',
      "[model_providers.mock]",
      'name = "mock"',
      `base_url = "${model.url}"`,
      'wire_api = "responses"',
      "request_max_retries = 0",
      "stream_max_retries = 0",
      "supports_websockets = false",
      "",
    ].join("\n"),
  );
  // HOME is a throw-away too: codex runs commands in a login shell, and the machine's own profile (pyenv,
  // nvm, …) must neither slow nor break the tests.
  const userHome = await mkdtemp(path.join(os.tmpdir(), "rennet-user-home-"));
  const env = { ...process.env, CODEX_HOME: home, HOME: userHome };
  const client = createCodex({ codex: PINNED_CODEX_BIN, env });
  return {
    model,
    home,
    cwd,
    env,
    client,
    async dispose() {
      await model.close();
      await rm(home, { recursive: true, force: true });
      await rm(cwd, { recursive: true, force: true });
      await rm(userHome, { recursive: true, force: true });
    },
  };
}
