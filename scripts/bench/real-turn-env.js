// The offline real turn every codex figure runs: the pinned codex (or $RENNET_TEST_CODEX) against a loopback
// model, with a throw-away HOME, CODEX_HOME (createCodexHome), project directory and RENNET_STATE_DIR.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createCodexHome, modelScenarios, startLoopbackModelServer } from "../../dist/testkit/index.js";

export const TURN_PROMPT = "Reply with one short sentence.";
const ANSWER = "This is the benchmark answer from the loopback model.";

/** The codex executable the real figures run: $RENNET_TEST_CODEX, else the pinned node_modules/.bin/codex. */
export function pinnedCodex(root) {
  if (process.env.RENNET_TEST_CODEX) return path.resolve(process.env.RENNET_TEST_CODEX);
  const bin = path.join(root, "node_modules", ".bin", process.platform === "win32" ? "codex.cmd" : "codex");
  return existsSync(bin) ? bin : null;
}

/** `process.env` without the variables that would change which codex or which state Rennet uses, plus `extra`. */
export function cleanBaseEnv(extra = {}) {
  const env = { ...process.env };
  delete env.RENNET_CODEX_BIN;
  delete env.RENNET_STATE_DIR;
  return { ...env, ...extra };
}

/**
 * Starts the loopback model and creates the throw-away directories. `env` is what every process of a real
 * turn gets; `cwd` is the (empty, non-git) project directory. Call `cleanup()` when the processes are gone.
 */
export async function startRealTurnEnv() {
  const model = await startLoopbackModelServer({ scenario: modelScenarios.text(ANSWER) });
  const home = await createCodexHome({ modelUrl: model.url });
  const made = [];
  const tempDir = async (name) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `rennet-bench-${name}-`));
    made.push(dir);
    return dir;
  };
  const userHome = await tempDir("home");
  const cwd = await tempDir("project");
  const stateDir = await tempDir("state");
  const env = home.env(cleanBaseEnv({ HOME: userHome, RENNET_STATE_DIR: stateDir }));
  return {
    model,
    env,
    cwd,
    userHome,
    tempDir,
    async cleanup() {
      await model.close();
      await home.cleanup();
      for (const dir of made) await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
