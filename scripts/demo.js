#!/usr/bin/env node
// `npm run demo`: one real turn of the pinned agent, offline. A loopback model server stands in for the provider's
// API and a throw-away home points the agent at it; nothing of the user's own setup is read or written. The turn
// runs through the `rennet` CLI exactly as a user would run it, so what you see is the live stream: assistant
// text deltas, a command execution with its output, and the usage summary.
//
//   npm run demo                       Codex (the pinned @openai/codex), human output
//   npm run demo -- --json             one harness event per line
//   npm run demo -- --harness claude   Claude Code (the pinned @anthropic-ai/claude-code)
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createClaudeHome,
  createCodexHome,
  messagesScenarios,
  modelScenarios,
  startLoopbackMessagesServer,
  startLoopbackModelServer,
} from "../dist/testkit/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const json = process.argv.includes("--json");
const harnessAt = process.argv.indexOf("--harness");
const harness = harnessAt === -1 ? "codex" : process.argv[harnessAt + 1];
if (harness !== "codex" && harness !== "claude") {
  console.error(`demo: --harness takes codex or claude, got ${harness ?? "nothing"}`);
  process.exit(2);
}

const PROMPT = "Look around the workspace and tell me how long notes.txt is.";
const THEN = "I listed the workspace and counted the lines of notes.txt: it has 3 lines.";

/** The pinned binary of `name` in node_modules, or the one `variable` names (as for the real-binary tests). */
function pinned(name, variable) {
  const bin = process.env[variable]
    ? path.resolve(process.env[variable])
    : path.join(root, "node_modules", ".bin", process.platform === "win32" ? `${name}.cmd` : name);
  if (!existsSync(bin)) {
    console.error(`demo: the pinned ${name} is missing at ${bin}; run \`npm install\` first.`);
    process.exit(1);
  }
  return bin;
}

/** The Codex demo: a loopback Responses API and a throw-away CODEX_HOME. */
async function codexSetup() {
  const bin = pinned("codex", "RENNET_TEST_CODEX");
  const command =
    "sleep 0.5; echo 'hello from the demo repo'; ls -1; sleep 0.5; echo 'counting lines:'; wc -l < notes.txt";
  const model = await startLoopbackModelServer({
    scenario: modelScenarios.command(command, { then: THEN, yieldTimeMs: 10_000 }),
  });
  const home = await createCodexHome({ modelUrl: model.url });
  return {
    args: ["codex", "run", "--codex-bin", bin],
    env: home.env(),
    describe: `codex ${bin}\ndemo: loopback model ${model.url}, CODEX_HOME ${home.dir}`,
    requests: () => model.responsesRequests().length,
    close: async () => (await model.close(), await home.cleanup()),
  };
}

/** The Claude Code demo: a loopback Messages API and a throw-away HOME. */
async function claudeSetup() {
  const bin = pinned("claude", "RENNET_TEST_CLAUDE");
  // Claude refuses a command that starts with `sleep`
  const command =
    "echo 'hello from the demo repo'; ls -1; sleep 0.5; echo 'counting lines:'; wc -l < notes.txt";
  const model = await startLoopbackMessagesServer({
    scenario: messagesScenarios.bash(command, { then: THEN }),
  });
  const home = await createClaudeHome({ modelUrl: model.url });
  const env = home.env();
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  // Claude Code refuses its bypass permission mode to root unless IS_SANDBOX=1. Rennet never sets it; this demo
  // runs in a throw-away home against a loopback model, so it says so for its own child.
  if (asRoot) env.IS_SANDBOX = "1";
  return {
    args: ["claude", "run", "--claude-bin", bin],
    env,
    describe:
      `claude ${bin}\ndemo: loopback Messages API ${model.url}, HOME ${home.dir}` +
      (asRoot
        ? "\ndemo: running as root: IS_SANDBOX=1 is set for this demo's claude (Rennet never sets it)"
        : ""),
    requests: () => model.messagesRequests().length,
    close: async () => (await model.close(), await home.cleanup()),
  };
}

const setup = harness === "claude" ? await claudeSetup() : await codexSetup();
const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-demo-"));
await writeFile(path.join(cwd, "notes.txt"), "one\ntwo\nthree\n");
console.error(`demo: ${setup.describe}, cwd ${cwd}\n`);

const args = [path.join(root, "bin", "rennet.js"), ...setup.args, "--cwd", cwd];
if (json) args.push("--json");
args.push(PROMPT);

const child = spawn(process.execPath, args, { stdio: "inherit", env: setup.env });
const forward = (signal) => child.kill(signal);
process.on("SIGINT", forward);
process.on("SIGTERM", forward);
const code = await new Promise((resolve) => child.on("exit", (c, s) => resolve(c ?? (s ? 128 : 1))));

const requests = setup.requests();
await setup.close();
await rm(cwd, { recursive: true, force: true });
console.error(`\ndemo: the model received ${requests} requests; rennet exited with ${code}`);
process.exitCode = code;
