import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./codex-bin.js";

/** npm's `bin/claude.exe` is a shell stub of ~500 bytes until the package's postinstall replaced it. */
const STUB_BYTES = 4096;

function platformPackage(): string {
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const platform =
    process.platform === "win32" ? "win32" : process.platform === "darwin" ? "darwin" : "linux";
  return `claude-code-${platform}-${arch}`;
}

/**
 * The pinned devDependency's native binary: `@anthropic-ai/claude-code/bin/claude.exe` (what `node_modules/.bin/
 * claude` links to), or, when an install ran without scripts and left the stub there, the platform package's
 * binary (`@anthropic-ai/claude-code-<platform>-<arch>/claude`), which is the same file the postinstall links.
 */
export function pinnedClaudeBin(): string {
  const launcher = path.join(REPO_ROOT, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
  if (existsSync(launcher) && statSync(launcher).size > STUB_BYTES) return launcher;
  const exe = process.platform === "win32" ? "claude.exe" : "claude";
  return path.join(REPO_ROOT, "node_modules", "@anthropic-ai", platformPackage(), exe);
}

/** The claude every real-binary Claude test runs: `RENNET_TEST_CLAUDE`, else the pinned devDependency. */
export const TEST_CLAUDE_BIN: string = process.env.RENNET_TEST_CLAUDE
  ? path.resolve(process.env.RENNET_TEST_CLAUDE)
  : pinnedClaudeBin();

/** Throws, naming the fix, when the claude under test is missing (a real-binary test is never skipped). */
export function requireTestClaude(): void {
  if (!existsSync(TEST_CLAUDE_BIN))
    throw new Error(
      `the claude for real-binary tests is missing at ${TEST_CLAUDE_BIN}: run \`npm install\` (the pinned ` +
        "@anthropic-ai/claude-code devDependency) or point RENNET_TEST_CLAUDE at a claude executable",
    );
}

/** What `TEST_CLAUDE_BIN --version` prints (`2.1.332 (Claude Code)`), run with `env` (give it a throw-away HOME). */
export function testClaudeVersionOutput(env: NodeJS.ProcessEnv): string {
  return execFileSync(TEST_CLAUDE_BIN, ["--version"], { encoding: "utf8", timeout: 30_000, env }).trim();
}
