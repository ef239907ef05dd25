/**
 * Discovery and `rennet claude doctor` against the real claude under test (`RENNET_TEST_CLAUDE`, default the
 * pinned release), in a throw-away HOME: a supported release is found and its version read; one older than
 * 2.0.64 is refused with `CLAUDE_UNSUPPORTED_VERSION` (a 1.0 `cli.js` from its header, never run); the doctor
 * exits 0 or 3 accordingly; and the release's own `--help` agrees with the capability table where it can tell.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { claudeCapabilities, type ClaudeCapabilities } from "../../../src/claude/capabilities.js";
import { discoverClaude } from "../../../src/claude/discovery/discover-claude.js";
import type { ClaudeDoctorOutput } from "../../../src/cli/commands/claude-doctor-action.js";
import { main } from "../../../src/cli/main.js";
import { requireTestClaude, TEST_CLAUDE_BIN } from "../../helpers/claude-bin.js";

let capabilities: ClaudeCapabilities;
let help = "";
let home = "";

/** Runs the claude under test in its own throw-away HOME (1.0's `--version` and `--help` write there). */
function runClaude(args: string[]): string {
  const scratch = path.join(os.tmpdir(), `rennet-claude-probe-${process.pid}-${args.join("")}`);
  try {
    return execFileSync(TEST_CLAUDE_BIN, args, {
      encoding: "utf8",
      timeout: 60_000,
      env: { PATH: process.env.PATH, HOME: scratch, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
    });
  } finally {
    execFileSync("rm", ["-rf", scratch]);
  }
}

beforeAll(() => {
  requireTestClaude();
  capabilities = claudeCapabilities(runClaude(["--version"]).trim());
  help = runClaude(["--help"]);
});

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "rennet-claude-doctor-home-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** An environment with node on PATH (a `cli.js` release runs under it) and nothing of the machine's HOME. */
function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    HOME: home,
    PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
    SHELL: "/nonexistent/shell",
    RENNET_STATE_DIR: path.join(home, "state"),
    ...extra,
  };
}

/** What discovery left in HOME besides Rennet's own state directory. */
const homeEntries = (): string[] => readdirSync(home).filter((name) => name !== "state");

describe(`real claude: discovery and doctor`, () => {
  it("discovers it through RENNET_CLAUDE_BIN: a supported release with its version, an older one refused, HOME untouched", async () => {
    const report = await discoverClaude({
      env: env({ RENNET_CLAUDE_BIN: TEST_CLAUDE_BIN }),
      homedir: home,
      cwd: home,
      loginShell: false,
      cacheDir: path.join(home, "state"),
      timeoutMs: 60_000,
    });
    const candidate = report.candidates[0];
    expect(candidate?.source).toBe("env-override");
    if (capabilities.supported) {
      expect(report.available, candidate?.reason ?? "").toBe(true);
      expect(report.chosen?.version).toBe(capabilities.version);
    } else {
      expect(report).toMatchObject({ available: false, code: "CLAUDE_UNSUPPORTED_VERSION" });
      expect(candidate?.reason).toContain(
        `Claude Code ${capabilities.version} is older than the oldest supported 2.0.64`,
      );
    }
    // a supported release's --version writes nothing; a 1.0 cli.js (whose --version does) is not run at all
    expect(homeEntries()).toEqual([]);
  });

  it("rennet claude doctor exits 0 for a supported release and 3 for an older one, with the trust of --cwd", async () => {
    const repo = path.join(home, "repo");
    await mkdir(path.join(repo, ".claude"), { recursive: true });
    await writeFile(
      path.join(repo, ".claude", "settings.json"),
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: "touch marker" }] }] },
      }),
    );
    const chunks: string[] = [];
    const stdout = { write: (text: string) => (chunks.push(text), true) } as unknown as NodeJS.WritableStream;
    const code = await main(["claude", "doctor", "--json", "--claude-bin", TEST_CLAUDE_BIN, "--cwd", repo], {
      stdout,
      stderr: stdout,
      env: env(),
      cwd: home,
    } as never);
    const report = JSON.parse(chunks.join("")) as ClaudeDoctorOutput;
    expect(code).toBe(capabilities.supported ? 0 : 3);
    expect(report.candidates.map((c) => [c.label, c.version])).toEqual([
      ["--claude-bin", capabilities.version],
    ]);
    expect(report.trust?.files[0]?.config?.hooks).toEqual([
      { event: "SessionStart", matcher: null, runs: "touch marker" },
    ]);
    expect(existsSync(path.join(repo, "marker"))).toBe(false);
  });

  it("its --help agrees with the capability table (persistence, effort, permission prompts)", () => {
    const has = (flag: string): boolean => new RegExp(`${flag}[ ,=<]`).test(help);
    expect(has("--no-session-persistence"), "--no-session-persistence marks the oldest supported").toBe(
      capabilities.supported,
    );
    expect(has("--effort"), "--effort").toBe(capabilities.effort);
    expect(has("--permission-prompts"), "--permission-prompts").toBe(capabilities.permissionPromptsFlag);
    for (const flag of [
      "--input-format",
      "--include-partial-messages",
      "--setting-sources",
      "--strict-mcp-config",
    ])
      expect(has(flag), flag).toBe(true);
  });
});
