import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, it } from "vitest";
import { discoverCodex } from "../../../src/codex/discovery/discover.js";
import { createSandbox, leftoverProcesses, type Sandbox } from "./discovery-sandbox.js";

// The pinned devDependency (npm launcher codex.js → native binary), found through a PATH entry, with a
// throw-away CODEX_HOME; nothing touches ~/.codex.
const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = path.join(REPO, "node_modules", ".bin");
const PINNED = (
  JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies["@openai/codex"];

let sb: Sandbox;

beforeEach(async () => {
  sb = await createSandbox();
});

afterEach(async () => {
  expect(await leftoverProcesses(sb.marker)).toEqual([]);
  await sb.cleanup();
});

it("discovers the pinned codex through PATH: version, app-server handshake, launch command", async () => {
  const env = sb.env({ PATH: `${BIN}:${path.dirname(process.execPath)}:/usr/bin:/bin` });
  const report = await discoverCodex({
    env,
    platform: process.platform,
    homedir: sb.home,
    cwd: sb.root,
    cacheDir: sb.cacheDir,
    systemRoot: sb.systemRoot,
    timeoutMs: 30_000,
  });
  expect(report.reason).toBeUndefined();
  expect(report.available).toBe(true);
  expect(report.chosen).toMatchObject({
    launch: { type: "native", command: path.join(BIN, "codex") },
    path: path.join(BIN, "codex"),
    version: PINNED,
    source: "process-path",
  });
  expect(report.candidates[0]?.probes.map((p) => p.result)).toEqual(["pass", "pass", "pass"]);
});

it("runs the real npm launcher through the node beside it when PATH has no node (asdf layout)", async () => {
  const bin = await sb.dir("home", ".asdf", "installs", "nodejs", "20.19.0", "bin");
  await fs.symlink(await fs.realpath(path.join(BIN, "codex")), path.join(bin, "codex"));
  await fs.symlink(process.execPath, path.join(bin, "node"));
  const report = await discoverCodex({
    env: sb.env({ PATH: "/nonexistent-gui-path" }),
    platform: process.platform,
    homedir: sb.home,
    cwd: sb.root,
    cacheDir: sb.cacheDir,
    systemRoot: sb.systemRoot,
    timeoutMs: 30_000,
  });
  expect(report.chosen).toMatchObject({
    launch: { type: "node-launcher", node: path.join(bin, "node"), script: path.join(bin, "codex") },
    version: PINNED,
    source: "known-location",
  });
});
