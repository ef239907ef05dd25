#!/usr/bin/env node
// `npm run demo`: one real turn of the pinned @openai/codex, offline. A loopback model server stands in for the
// OpenAI API and a throw-away CODEX_HOME points codex at it; nothing of the user's Codex setup is read or
// written. The turn runs through the `rennet` CLI exactly as a user would run it, so what you see is the live
// stream: assistant text deltas, a command execution with its output, and the usage summary.
//
//   npm run demo            human output
//   npm run demo -- --json  one harness event per line
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createCodexHome, modelScenarios, startLoopbackModelServer } from "../dist/testkit/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// RENNET_TEST_CODEX runs the demo against another codex (as it does the real-binary tests).
const codexBin = process.env.RENNET_TEST_CODEX
  ? path.resolve(process.env.RENNET_TEST_CODEX)
  : path.join(root, "node_modules", ".bin", process.platform === "win32" ? "codex.cmd" : "codex");
if (!existsSync(codexBin)) {
  console.error(`demo: the pinned codex is missing at ${codexBin}; run \`npm install\` first.`);
  process.exit(1);
}
const json = process.argv.includes("--json");

const command =
  "sleep 0.5; echo 'hello from the demo repo'; ls -1; sleep 0.5; echo 'counting lines:'; wc -l < notes.txt";
const model = await startLoopbackModelServer({
  scenario: modelScenarios.command(command, {
    then: "I listed the workspace and counted the lines of notes.txt: it has 3 lines.",
    yieldTimeMs: 10_000,
  }),
});
const home = await createCodexHome({ modelUrl: model.url });
const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-demo-"));
await writeFile(path.join(cwd, "notes.txt"), "one\ntwo\nthree\n");

console.error(`demo: codex ${codexBin}`);
console.error(`demo: loopback model ${model.url}, CODEX_HOME ${home.dir}, cwd ${cwd}\n`);

const args = [path.join(root, "bin", "rennet.js"), "codex", "run", "--codex-bin", codexBin, "--cwd", cwd];
if (json) args.push("--json");
args.push("Look around the workspace and tell me how long notes.txt is.");

const child = spawn(process.execPath, args, { stdio: "inherit", env: home.env() });
const forward = (signal) => child.kill(signal);
process.on("SIGINT", forward);
process.on("SIGTERM", forward);
const code = await new Promise((resolve) => child.on("exit", (c, s) => resolve(c ?? (s ? 128 : 1))));

await model.close();
await home.cleanup();
await rm(cwd, { recursive: true, force: true });
console.error(
  `\ndemo: the model received ${model.responsesRequests().length} requests; rennet exited with ${code}`,
);
process.exitCode = code;
