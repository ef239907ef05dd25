/**
 * `rennet claude doctor` over sandboxed fake `claude` executables: the human report and `--json`, exit 0 when a
 * Claude Code is available and 3 when none is (or the one found is too old), `--claude-bin`, and the project
 * trust of `--cwd` with the repository's own Claude Code files listed (only the JSON settings read, bounded).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ClaudeDoctorOutput } from "../../src/cli/commands/claude-doctor-action.js";
import { main } from "../../src/cli/main.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";
import { fakeRuns, writeFakeClaude } from "../claude/discovery/fake-claude-files.js";

const sb = sandboxPerTest();
const log = (): string => path.join(sb().root, "claude.log");

function memoryStream(): { stream: NodeJS.WritableStream; text: () => string } {
  const chunks: string[] = [];
  const stream = { write: (text: string) => (chunks.push(text), true) } as unknown as NodeJS.WritableStream;
  return { stream, text: () => chunks.join("") };
}

async function doctor(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = memoryStream();
  const stderr = memoryStream();
  const code = await main(["claude", "doctor", ...args], {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { ...sb().env(), SHELL: "/nonexistent/shell", RENNET_STATE_DIR: sb().cacheDir, ...env },
    cwd: sb().root,
  } as never);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** A repository with Claude Code's own files: malformed settings, a symlink to /dev/zero, an unreadable CLAUDE.md. */
async function hostileRepository(): Promise<string> {
  const repo = await sb().dir("repo");
  await fs.mkdir(path.join(repo, ".claude", "commands"), { recursive: true });
  const secret = "READ-ME-AND-FAIL";
  await fs.writeFile(path.join(repo, ".claude", "settings.json"), `{"hooks": "${secret}"}`);
  await fs.writeFile(path.join(repo, ".mcp.json"), `{"mcpServers": "${secret}"}`);
  await fs.writeFile(path.join(repo, "CLAUDE.md"), secret);
  await fs.chmod(path.join(repo, "CLAUDE.md"), 0o000); // unreadable: listing it must not open it
  await fs.symlink("/dev/zero", path.join(repo, ".claude", "settings.local.json"));
  return repo;
}

describe("rennet claude doctor", () => {
  it("reports the chosen claude, every candidate and the untrusted default for --cwd (human)", async () => {
    const claude = await writeFakeClaude(path.join(await sb().dir("bin"), "claude"), log());
    const repo = await hostileRepository();
    const { code, stdout, stderr } = await doctor(["--cwd", repo], { RENNET_CLAUDE_BIN: claude });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(
      `Claude Code: available\n  chosen  claude 2.1.332  ${claude}\n          from env-override\n`,
    );
    expect(stdout).toContain(
      `  launch  ${claude} -p --input-format stream-json --output-format stream-json\n`,
    );
    expect(stdout).toContain(
      `  ✔ 1. ${claude}  ← chosen\n       env-override (RENNET_CLAUDE_BIN) · version 2.1.332\n`,
    );
    expect(stdout).toContain(`Project trust: untrusted  ${repo}\n`);
    expect(stdout).toContain(
      '  a turn  --setting-sources=user --strict-mcp-config --mcp-config={"mcpServers":{}}\n',
    );
    expect(stdout).toMatch(
      / {4}\.claude\/settings\.json {8}project settings: .*: ignored \(--setting-sources=user\)\n/,
    );
    expect(stdout).toMatch(
      / {4}\.claude\/settings\.local\.json {2}local settings: .* \(a symlink\): ignored/,
    );
    expect(stdout).toMatch(/ {4}\.mcp\.json {20}project MCP servers: not started \(--strict-mcp-config/);
    expect(stdout).toMatch(/ {4}CLAUDE\.md {20}instructions: not loaded \(--setting-sources=user\)/);
    expect(stdout).toMatch(/ {4}\.claude\/commands\/ {12}slash commands: not loaded/);
    expect(stdout).toContain("      unread  a symlink: not followed, not read\n");
    expect(stdout).toContain("      more    1 more entries (or not of the documented shape)\n");
    expect(stdout).toContain("  Rennet loads none of the repository's settings, hooks or MCP servers");
    expect(stdout).not.toContain("READ-ME-AND-FAIL");
    expect(fakeRuns(log())).toEqual([`${claude} --version`]);
  });

  it("prints one JSON object with --json, and the opted-in trust with --trust-project", async () => {
    const claude = await writeFakeClaude(path.join(await sb().dir("bin"), "claude"), log());
    const repo = await hostileRepository();
    const { code, stdout } = await doctor(["--json", "--trust-project", "--cwd", repo], {
      PATH: path.dirname(claude),
    });
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    const report = JSON.parse(stdout) as ClaudeDoctorOutput;
    expect(report.available).toBe(true);
    expect(report.chosen).toMatchObject({ path: claude, version: "2.1.332", source: "process-path" });
    expect(report.program).toMatchObject({ name: "Claude Code", doctorCommand: "rennet claude doctor" });
    expect(report.trust).toMatchObject({
      cwd: repo,
      trusted: true,
      args: ["--setting-sources=user,project,local", "--strict-mcp-config", '--mcp-config={"mcpServers":{}}'],
    });
    expect(report.trust?.files.map((file) => [file.relative, file.kind])).toEqual([
      [".claude/settings.json", "file"],
      [".claude/settings.local.json", "symlink"],
      [".mcp.json", "file"],
      ["CLAUDE.md", "file"],
      [".claude/commands", "directory"],
    ]);
    expect(report.trust?.files[0]?.effect).toMatch(/^applied: its hooks and apiKeyHelper run/);
    expect(stdout).not.toContain("READ-ME-AND-FAIL");
  });

  it("exits 3 with the reason and the fix when no claude is there, or the one found is too old", async () => {
    const none = await doctor([]);
    expect(none.code).toBe(3);
    expect(none.stdout).toContain("Claude Code: unavailable\n  reason  no claude executable found in ");
    expect(none.stdout).toContain(
      "  fix     install Claude Code (npm i -g @anthropic-ai/claude-code, or the native installer: " +
        "curl -fsSL https://claude.ai/install.sh | bash), or set RENNET_CLAUDE_BIN to a working claude executable; " +
        "after a fix, run `rennet claude doctor --refresh`\n",
    );
    expect(none.stdout).toContain(`Project trust: untrusted  ${sb().root}\n`);
    const old = await writeFakeClaude(path.join(await sb().dir("old"), "claude"), log(), {
      prints: "2.0.0 (Claude Code)",
    });
    const tooOld = await doctor(["--json", "--claude-bin", old]);
    expect(tooOld.code).toBe(3);
    const report = JSON.parse(tooOld.stdout) as ClaudeDoctorOutput;
    expect(report).toMatchObject({ available: false, code: "CLAUDE_UNSUPPORTED_VERSION" });
    expect(report.candidates.map((c) => [c.label, c.version])).toEqual([["--claude-bin", "2.0.0"]]);
  });

  it("refuses a --cwd that is no directory (exit 2, as for `run`) before discovery, and empty values", async () => {
    const claude = await writeFakeClaude(path.join(await sb().dir("bin"), "claude"), log());
    const missing = path.join(sb().root, "missing");
    const file = path.join(sb().root, "a-file");
    await fs.writeFile(file, "");
    for (const [cwd, why] of [
      [missing, "no such directory; create it or pass an existing one"],
      [file, "not a directory; pass the directory Claude Code should work in, not a file"],
    ] as const) {
      for (const json of [[], ["--json"]]) {
        const { code, stdout, stderr } = await doctor([...json, "--cwd", cwd], { RENNET_CLAUDE_BIN: claude });
        expect(code).toBe(2);
        expect(stdout).toBe("");
        expect(stderr).toBe(`error: --cwd ${cwd}: ${why} (${cwd})\n(see \`rennet claude doctor --help\`)\n`);
      }
    }
    expect(fakeRuns(log())).toEqual([]);
    const empty = await doctor(["--claude-bin", ""]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe(
      "error: --claude-bin is empty: give the path of the claude executable\n(see `rennet claude doctor --help`)\n",
    );
  });

  it("has help in the codex commands' style, reachable from the top", async () => {
    const help = await doctor(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: rennet claude doctor \[options\]\n/);
    expect(help.stdout).toContain("Exit codes:\n  0    Claude Code is available\n");
    expect(help.stdout).toContain("  RENNET_CLAUDE_BIN  the claude executable discovery tries first");
    const top = memoryStream();
    expect(await main(["help", "claude"], { stdout: top.stream, stderr: top.stream, env: {} } as never)).toBe(
      0,
    );
    expect(top.text()).toMatch(/\n {2}doctor \[options\] +show which Claude Code would run, and why\n/);
    const typo = memoryStream();
    expect(
      await main(["claud", "doctor"], { stdout: typo.stream, stderr: typo.stream, env: {} } as never),
    ).toBe(2);
    expect(typo.text()).toContain("error: unknown command 'claud' (did you mean claude?)");
  });
});
