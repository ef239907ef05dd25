import { promises as fs, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { discoverCodex } from "../../../src/codex/discovery/discover.js";
import { sandboxPerTest } from "../../helpers/discovery-sandbox.js";

// The pinned devDependency (npm launcher codex.js → native binary), found through a PATH entry, with a
// throw-away CODEX_HOME; nothing touches ~/.codex.
const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const BIN = path.join(REPO, "node_modules", ".bin");
const PINNED = (
  JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies["@openai/codex"];

// discovery resolves the launcher's symlinks, so the binary is named under node_modules' real path (a git
// worktree may link node_modules to another checkout's)
const NATIVE = path.join(
  realpathSync(path.join(REPO, "node_modules")),
  "@openai",
  `codex-${process.platform}-${process.arch}`,
  "vendor",
  `${process.arch === "arm64" ? "aarch64" : "x86_64"}-${process.platform === "darwin" ? "apple-darwin" : "unknown-linux-musl"}`,
  "bin",
  "codex",
);

const sb = sandboxPerTest();
/** The real platform, with time for the real binary's probes. */
const REAL = { platform: process.platform, timeoutMs: 30_000 };

it("discovers the pinned codex through PATH: version, app-server handshake, launch command", async () => {
  const env = sb().env({ PATH: `${BIN}:${path.dirname(process.execPath)}:/usr/bin:/bin` });
  const report = await discoverCodex(sb().options(env, REAL));
  expect(report.reason).toBeUndefined();
  expect(report.available).toBe(true);
  // npm's launcher is skipped: the native binary it would exec runs directly, with the launcher's variables
  const packageRoot = await fs.realpath(path.join(REPO, "node_modules", "@openai", "codex"));
  expect(report.chosen).toMatchObject({
    launch: {
      type: "native",
      command: NATIVE,
      env: { CODEX_MANAGED_PACKAGE_ROOT: packageRoot, CODEX_MANAGED_BY_NPM: "1" },
    },
    path: path.join(BIN, "codex"),
    version: PINNED,
    source: "process-path",
  });
  expect(report.candidates[0]?.launch).toBe("npm-native");
  expect(report.candidates[0]?.probes.map((p) => p.result)).toEqual(["pass", "pass", "pass"]);
});

it("runs the native binary of an npm install even when PATH has no node (asdf layout)", async () => {
  const bin = await sb().dir("home", ".asdf", "installs", "nodejs", "20.19.0", "bin");
  await fs.symlink(await fs.realpath(path.join(BIN, "codex")), path.join(bin, "codex"));
  await fs.symlink(process.execPath, path.join(bin, "node"));
  const report = await discoverCodex(sb().options(sb().env({ PATH: "/nonexistent-gui-path" }), REAL));
  expect(report.chosen).toMatchObject({
    launch: { type: "native", command: NATIVE },
    path: path.join(bin, "codex"),
    version: PINNED,
    source: "known-location",
  });
});

// codex 0.133–0.137: npm's launcher also puts the package's bundled tools (`codex-path`, with `rg`) first on PATH,
// so discovery keeps the launcher. Runs when the codex under test is such a release (`npm run test:compat`).
const UNDER_TEST = process.env.RENNET_TEST_CODEX ? path.resolve(process.env.RENNET_TEST_CODEX) : null;
const launcherAddsPath =
  UNDER_TEST !== null && readFileSync(realpathSync(UNDER_TEST), "utf8").includes("codex-path");

it.skipIf(!launcherAddsPath)("keeps an npm launcher that adds its bundled tools to PATH", async () => {
  const dir = path.dirname(UNDER_TEST as string);
  const env = sb().env({ PATH: `${dir}:${path.dirname(process.execPath)}:/usr/bin:/bin` });
  const report = await discoverCodex(sb().options(env, REAL));
  expect(report.available).toBe(true);
  expect(report.candidates[0]?.launch).not.toBe("npm-native");
  expect(report.chosen?.launch).toMatchObject({ type: "native", command: path.join(dir, "codex") });
});
