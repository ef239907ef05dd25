/**
 * A repository inside WSL gets the Claude Code of that distribution, found through `wsl.exe` (a fake that runs
 * `--exec` on this machine, which plays the distribution): its login-shell PATH, launched with `wsl.exe --exec`;
 * a 1.0 `cli.js` there is refused from its header, read by the distribution's own `/bin/sh`, without being run.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverClaude, type DiscoverClaudeOptions } from "../../../src/claude/discovery/discover-claude.js";
import { FAKE_WSL, sandboxPerTest } from "../../helpers/discovery-sandbox.js";
import { fakeRuns, link, writeFakeClaude } from "./fake-claude-files.js";

let wslExe: string;
const sb = sandboxPerTest(async (sandbox) => {
  wslExe = path.join(await sandbox.dir("windows"), "wsl.exe");
  await fs.writeFile(wslExe, `#!/bin/sh\nexec '${process.execPath}' '${FAKE_WSL}' "$@"\n`, { mode: 0o755 });
});
const log = (): string => path.join(sb().root, "claude.log");

/** A login shell of the distribution whose PATH starts with `dir`. */
async function loginShell(dir: string): Promise<string> {
  const shell = path.join(await sb().dir("distro-shell"), "bash");
  const lines = [
    "#!/bin/sh",
    "for last; do :; done",
    `PATH="${dir}:/usr/bin:/bin"; export PATH`,
    '/bin/sh -c "$last"',
  ];
  await fs.writeFile(shell, `${lines.join("\n")}\n`, { mode: 0o755 });
  return shell;
}

function options(env: NodeJS.ProcessEnv): DiscoverClaudeOptions {
  const repo = path.join(sb().root, "repo");
  return {
    env,
    platform: "win32",
    cwd: `\\\\wsl.localhost\\FakeDistro${repo.replace(/\//g, "\\")}`,
    cacheDir: sb().cacheDir,
    systemRoot: sb().systemRoot,
    wslExe,
    arch: "x64",
    timeoutMs: 20_000,
  };
}

describe("discoverClaude in a WSL locus (fake wsl.exe)", () => {
  it("finds the distribution's claude on its login-shell PATH and launches it through wsl.exe", async () => {
    await sb().dir("repo");
    const bin = await sb().dir("distro-bin");
    const claude = await writeFakeClaude(path.join(bin, "claude"), log());
    const env = sb().env({
      FAKE_WSL_DISTRO: "FakeDistro",
      SHELL: await loginShell(bin),
      USERPROFILE: "C:\\Users\\bob",
    });
    const report = await discoverClaude(options(env));
    expect(report.locus).toEqual({ type: "wsl", distro: "FakeDistro" });
    expect(report.chosen).toMatchObject({
      launch: { type: "wsl", wslExe, distro: "FakeDistro", argv: [claude] },
      version: "2.1.332",
      source: "login-shell-path",
    });
  });

  it("refuses a 1.0 cli.js in the distribution from its header, never running it", async () => {
    await sb().dir("repo");
    const bin = await sb().dir("distro-bin");
    const cli = path.join(sb().root, "distro-lib", "node_modules", "@anthropic-ai", "claude-code", "cli.js");
    await writeFakeClaude(cli, log(), { kind: "node", header: "1.0.128", prints: "1.0.128 (Claude Code)" });
    await link(cli, path.join(bin, "claude"));
    await fs.symlink(process.execPath, path.join(bin, "node"));
    // the distribution's own tools (head, awk) read the header: its PATH has them
    const env = sb().env({
      FAKE_WSL_DISTRO: "FakeDistro",
      SHELL: await loginShell(bin),
      USERPROFILE: "C:\\Users\\bob",
      PATH: "/usr/bin:/bin",
    });
    const report = await discoverClaude(options(env));
    expect(report.code).toBe("CLAUDE_UNSUPPORTED_VERSION");
    expect(report.candidates[0]).toMatchObject({ path: path.join(bin, "claude"), version: "1.0.128" });
    expect(fakeRuns(log())).toEqual([]);
  });
});
