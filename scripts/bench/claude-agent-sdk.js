// Anthropic's Claude Agent SDK for the Claude bench group, installed on demand outside the repository: it is no
// devDependency because it bundles a second native claude (~425 MB), which `--omit=optional` leaves out; the
// bench points the SDK at the pinned claude with `pathToClaudeCodeExecutable`. Cache root:
// $RENNET_BENCH_CACHE, else ~/.cache/rennet-bench; the package goes to <root>/claude-agent-sdk/<version> through
// `npm install --prefix`, into a temporary sibling first, renamed when complete.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** The version the bench measures (its bundled claude is 2.1.336; the bench runs the pinned one instead). */
export const AGENT_SDK_VERSION = "0.3.336";

function cacheRoot() {
  return process.env.RENNET_BENCH_CACHE
    ? path.resolve(process.env.RENNET_BENCH_CACHE)
    : path.join(os.homedir(), ".cache", "rennet-bench");
}

/** The SDK's entry module in the cache, or null when it is not installed. */
export function cachedAgentSdk(version = AGENT_SDK_VERSION) {
  const entry = path.join(
    cacheRoot(),
    "claude-agent-sdk",
    version,
    "node_modules",
    "@anthropic-ai",
    "claude-agent-sdk",
    "sdk.mjs",
  );
  return existsSync(entry) ? entry : null;
}

/**
 * The SDK's entry module, installed first when missing. Resolves with `{ entry }`, or `{ entry: null, note }`
 * when it cannot be installed (offline, no npm): the bench then skips its row and says why.
 */
export async function ensureAgentSdk(version = AGENT_SDK_VERSION) {
  const cached = cachedAgentSdk(version);
  if (cached) return { entry: cached, installed: false };
  const target = path.join(cacheRoot(), "claude-agent-sdk", version);
  const staging = `${target}.partial-${process.pid}`;
  await mkdir(path.dirname(target), { recursive: true });
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = [
    "install",
    "--prefix",
    staging,
    "--no-save",
    "--omit=optional",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    `@anthropic-ai/claude-agent-sdk@${version}`,
  ];
  const result = await new Promise((resolve) => {
    let stderr = "";
    const child = spawn(npm, args, {
      stdio: ["ignore", "ignore", "pipe"],
      shell: process.platform === "win32",
    });
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => resolve({ ok: false, why: error.message }));
    child.on("close", (code) =>
      resolve({ ok: code === 0, why: stderr.trim().split("\n").slice(-2).join(" ") }),
    );
  });
  if (!result.ok) {
    await rm(staging, { recursive: true, force: true });
    return { entry: null, note: `Claude Agent SDK ${version} not installed (offline?): ${result.why}` };
  }
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
  return { entry: cachedAgentSdk(version), installed: true };
}
