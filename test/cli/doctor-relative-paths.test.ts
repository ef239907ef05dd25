/**
 * `rennet codex doctor` / `rennet claude doctor` run from one directory with `--cwd` naming a repository that holds
 * decoy executables: a relative PATH entry is never searched, and a relative RENNET_<NAME>_BIN resolves against
 * the directory the command was run in. The repository's decoys must never run (the probes and any session start
 * in the repository, where a relative path would name the decoy).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";
import { fakeRuns, writeFakeClaude } from "../claude/discovery/fake-claude-files.js";

const sb = sandboxPerTest();

interface World {
  /** The directory the command is run in (it holds the user's own `bin/<name>`). */
  shellDir: string;
  /** The repository given to `--cwd`, with `bin/<name>` and `<name>` decoys. */
  repo: string;
  /** One line per decoy run. */
  decoyLog: string;
}

async function world(name: string): Promise<World> {
  const shellDir = await sb().dir("shell-dir");
  const repo = await sb().dir("repo");
  const decoyLog = path.join(sb().root, "decoy.log");
  const decoy = `#!/bin/sh\necho "$0 $*" >> '${decoyLog}'\necho '9.9.9 (Claude Code)'\n`;
  for (const file of [path.join(repo, "bin", name), path.join(repo, name)]) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, decoy, { mode: 0o755 });
  }
  return { shellDir, repo, decoyLog };
}

function memoryStream(): { stream: NodeJS.WritableStream; text: () => string } {
  const chunks: string[] = [];
  const stream = { write: (text: string) => (chunks.push(text), true) } as unknown as NodeJS.WritableStream;
  return { stream, text: () => chunks.join("") };
}

/** `rennet <harness> doctor …` run in `w.shellDir` (the process's own directory too, as in a terminal). */
async function doctor(
  w: World,
  harness: "codex" | "claude",
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = memoryStream();
  const stderr = memoryStream();
  const before = process.cwd();
  process.chdir(w.shellDir);
  try {
    const code = await main([harness, "doctor", "--cwd", w.repo, ...args], {
      stdout: stdout.stream,
      stderr: stderr.stream,
      env: { ...sb().env(), SHELL: "/nonexistent/shell", RENNET_STATE_DIR: sb().cacheDir, ...env },
      cwd: w.shellDir,
    } as never);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    process.chdir(before);
  }
}

async function decoyRuns(w: World): Promise<string> {
  return fs.readFile(w.decoyLog, "utf8").catch(() => "");
}

interface JsonReport {
  available: boolean;
  chosen: { path: string } | null;
  candidates: { path: string }[];
  skippedDirs?: { dir: string; source: string; reason: string }[];
}

describe("doctor with relative PATH entries and a repository holding decoys", () => {
  it("codex: never searches `bin`, `.` or an empty entry, and never runs the repository's codex", async () => {
    const w = await world("codex");
    await sb().fakeCodex(path.join(w.shellDir, "bin")); // what `bin` means in the user's shell
    const good = await sb().fakeCodex(await sb().dir("installed"));
    const env = { PATH: `bin:.::${path.dirname(good)}` };
    const json = await doctor(w, "codex", ["--json", "--no-drift", "--refresh"], env);
    const report = JSON.parse(json.stdout) as JsonReport;
    expect(report.chosen?.path).toBe(good);
    expect(report.candidates.map((c) => c.path)).toEqual([good]);
    expect(report.skippedDirs?.map((s) => [s.dir, s.source])).toEqual([
      ["bin", "process-path"],
      [".", "process-path"],
      ["", "process-path"],
    ]);
    const text = await doctor(w, "codex", ["--no-drift", "--no-color"], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Not searched: 3 directories (only absolute paths are searched;");
    expect(text.stdout).toContain(
      '  "bin"  PATH: not an absolute path (it would resolve against the working directory)\n',
    );
    expect(await decoyRuns(w)).toBe("");
  });

  it("codex: nothing else found says how many entries were skipped, still without running a decoy", async () => {
    const w = await world("codex");
    const { code, stdout } = await doctor(w, "codex", ["--no-drift", "--no-color"], { PATH: "bin" });
    expect(code).toBe(3);
    expect(stdout).toMatch(
      /reason {2}no codex executable found in \d+ directories .*; skipped 1 directory that is not an absolute path/,
    );
    expect(await decoyRuns(w)).toBe("");
  });

  it("claude: the same for `rennet claude doctor`", async () => {
    const w = await world("claude");
    const log = path.join(sb().root, "claude.log");
    const good = await writeFakeClaude(path.join(await sb().dir("installed"), "claude"), log);
    const json = await doctor(w, "claude", ["--json", "--refresh"], { PATH: `bin:.:${path.dirname(good)}` });
    const report = JSON.parse(json.stdout) as JsonReport;
    expect(report.chosen?.path).toBe(good);
    expect(report.candidates.map((c) => c.path)).toEqual([good]);
    expect(report.skippedDirs?.map((s) => s.dir)).toEqual(["bin", "."]);
    expect(fakeRuns(log)).toEqual([`${good} --version`]);
    expect(await decoyRuns(w)).toBe("");
  });
});

describe("doctor with a relative RENNET_<NAME>_BIN", () => {
  it("codex: resolves it against the directory the command was run in, not --cwd", async () => {
    const w = await world("codex");
    const mine = await sb().fakeCodex(path.join(w.shellDir, "bin"));
    const json = await doctor(w, "codex", ["--json", "--no-drift", "--refresh"], {
      RENNET_CODEX_BIN: "bin/codex",
    });
    const report = JSON.parse(json.stdout) as JsonReport & { chosen: { source: string } | null };
    expect(report.chosen).toMatchObject({ path: mine, source: "env-override" });
    expect(sb().invocations().length).toBeGreaterThan(0);
    expect(await decoyRuns(w)).toBe("");
  });

  it("claude: resolves it against the directory the command was run in, not --cwd", async () => {
    const w = await world("claude");
    const log = path.join(sb().root, "claude.log");
    const mine = await writeFakeClaude(path.join(w.shellDir, "bin", "claude"), log);
    const json = await doctor(w, "claude", ["--json", "--refresh"], { RENNET_CLAUDE_BIN: "bin/claude" });
    const report = JSON.parse(json.stdout) as JsonReport;
    expect(report.chosen?.path).toBe(mine);
    expect(fakeRuns(log)).toEqual([`${mine} --version`]);
    expect(await decoyRuns(w)).toBe("");
  });
});

describe("a bare name as the executable (`--codex-bin codex`, RENNET_<NAME>_BIN=codex)", () => {
  it("codex: is looked up in the absolute PATH directories only, never in the directory the command runs in", async () => {
    const w = await world("codex");
    const inShellDir = path.join(w.shellDir, "codex");
    await fs.copyFile(path.join(w.repo, "codex"), inShellDir);
    await fs.chmod(inShellDir, 0o755);
    const good = await sb().fakeCodex(await sb().dir("installed"));
    const env = { PATH: `.:bin:${path.dirname(good)}` };
    for (const args of [["--codex-bin", "codex"], []]) {
      const json = await doctor(w, "codex", ["--json", "--no-drift", "--refresh", ...args], {
        ...env,
        ...(args.length === 0 ? { RENNET_CODEX_BIN: "codex" } : {}),
      });
      const report = JSON.parse(json.stdout) as JsonReport;
      expect(report.chosen?.path).toBe(good);
    }
    const missing = await doctor(w, "codex", ["--no-drift", "--no-color", "--codex-bin", "codex"], {
      PATH: ".",
    });
    expect(missing.code).toBe(3);
    expect(missing.stdout).toContain("not found in any absolute PATH directory");
    expect(await decoyRuns(w)).toBe("");
  });

  it("claude: the same for `rennet claude doctor`", async () => {
    const w = await world("claude");
    const inShellDir = path.join(w.shellDir, "claude");
    await fs.copyFile(path.join(w.repo, "claude"), inShellDir);
    await fs.chmod(inShellDir, 0o755);
    const log = path.join(sb().root, "claude.log");
    const good = await writeFakeClaude(path.join(await sb().dir("installed"), "claude"), log);
    const json = await doctor(w, "claude", ["--json", "--refresh"], {
      PATH: `.:${path.dirname(good)}`,
      RENNET_CLAUDE_BIN: "claude",
    });
    expect((JSON.parse(json.stdout) as JsonReport).chosen?.path).toBe(good);
    expect(await decoyRuns(w)).toBe("");
  });
});
