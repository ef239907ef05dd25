import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ResolvedCodex } from "../../src/codex/launch/codex-launch.js";
import { compareVersions, parseVersion } from "../../src/codex/versions/capabilities.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The pinned devDependency's launcher (`node_modules/.bin/codex`). */
export const PINNED_CODEX_BIN = path.join(
  REPO_ROOT,
  "node_modules",
  ".bin",
  process.platform === "win32" ? "codex.cmd" : "codex",
);

/** The version the pinned devDependency claims (`package.json`). */
export const PINNED_CODEX_VERSION = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies["@openai/codex"] as string;

/**
 * The codex every real-binary test runs: `RENNET_TEST_CODEX` (a path to any codex, e.g. an older release
 * installed by `npm run test:compat`), else the pinned devDependency.
 */
export const TEST_CODEX_BIN: string = process.env.RENNET_TEST_CODEX
  ? path.resolve(process.env.RENNET_TEST_CODEX)
  : PINNED_CODEX_BIN;

export function testCodexAvailable(): boolean {
  return existsSync(TEST_CODEX_BIN);
}

let version: string | null | undefined;

/** What `TEST_CODEX_BIN --version` prints (`0.171.0`), read once; null when it prints none. */
export function testCodexVersion(): string | null {
  if (version !== undefined) return version;
  try {
    const out = execFileSync(TEST_CODEX_BIN, ["--version"], { encoding: "utf8", timeout: 30_000 });
    version = /(\d+\.\d+\.\d+\S*)/.exec(out)?.[1] ?? null;
  } catch {
    version = null;
  }
  return version;
}

/** A codex that is the node script `script` (an executable fake) run through this process's node. */
export function nodeScriptCodex(script: string): ResolvedCodex {
  return {
    launch: { type: "node-launcher", node: process.execPath, script },
    path: script,
    version: null,
    source: "explicit",
  };
}

/**
 * Whether the codex under test is older than `release` (false when its version is unknown): for a behaviour of
 * codex's own measured to differ on older releases, where no capability names it.
 */
export function testCodexBefore(release: string): boolean {
  const tested = parseVersion(testCodexVersion() ?? "");
  const bound = parseVersion(release);
  return tested !== null && bound !== null && compareVersions(tested, bound) < 0;
}
