/**
 * `discoverClaude` finds Claude Code where a GUI app's inherited PATH does not reach: the login shell's PATH
 * (launched with that PATH), and the global bins of bun, pnpm, Volta, npm's `~/.npm-global` and the version
 * managers (asdf, mise, fnm, nvm), each ranked as the neutral engine ranks them, every one probed with
 * `--version`, and a too-old one among them refused while a supported one still wins.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverClaude } from "../../../src/claude/discovery/discover-claude.js";
import { sandboxPerTest } from "../../helpers/discovery-sandbox.js";
import { fakeRuns, writeFakeClaude } from "./fake-claude-files.js";

const sb = sandboxPerTest();
const log = (): string => path.join(sb().root, "claude.log");

describe("discoverClaude: where a GUI app must look", () => {
  it("takes the login shell's PATH over the process PATH, and launches with it", async () => {
    const loginOnly = await writeFakeClaude(path.join(await sb().dir("login-only"), "claude"), log());
    const guiPath = await writeFakeClaude(path.join(await sb().dir("gui-path"), "claude"), log(), {
      prints: "2.1.300 (Claude Code)",
    });
    const shell = path.join(await sb().dir("shell"), "fakesh");
    await fs.writeFile(
      shell,
      [
        "#!/bin/sh",
        'echo "rc-file noise"',
        'echo "__RENNET_PATH_START_0000__"',
        `PATH="${path.dirname(loginOnly)}:/usr/bin:/bin"; export PATH`,
        "for last; do :; done",
        '/bin/sh -c "$last"',
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    const env = sb().env({ SHELL: shell, PATH: path.dirname(guiPath) });
    const report = await discoverClaude({ ...sb().options(env), mode: "all" });
    expect(report.loginShell).toMatchObject({ type: "ok", shell });
    expect(report.candidates.map((c) => [c.path, c.source, c.version])).toEqual([
      [loginOnly, "login-shell-path", "2.1.332"],
      [guiPath, "process-path", "2.1.300"],
    ]);
    expect(report.chosen?.path).toBe(loginOnly);
    expect(report.chosen?.launch.env?.PATH).toBe(
      `${path.dirname(loginOnly)}:/usr/bin:/bin:${path.dirname(guiPath)}`,
    );
  });

  it("finds the global bins of bun, pnpm, Volta, ~/.npm-global and the version managers, each probed", async () => {
    const home = sb().home;
    const dirs: [string, string][] = [
      [path.join(home, ".npm-global", "bin"), "npm global (~/.npm-global)"],
      [path.join(home, ".volta", "bin"), "Volta"],
      [path.join(home, ".bun", "bin"), "bun"],
      [path.join(home, ".asdf", "installs", "nodejs", "22.1.0", "bin"), "asdf node installs"],
      [path.join(home, ".local", "share", "mise", "installs", "node", "22.2.0", "bin"), "mise node installs"],
      [
        path.join(home, ".local", "share", "fnm", "node-versions", "v22.3.0", "installation", "bin"),
        "fnm node versions",
      ],
      [path.join(home, ".nvm", "versions", "node", "v22.4.0", "bin"), "nvm node versions"],
      [path.join(home, ".local", "share", "pnpm"), "pnpm home"],
    ];
    for (const [dir] of dirs) await writeFakeClaude(path.join(dir, "claude"), log());
    // a too-old one in a better-ranked place is refused; the next supported one wins
    await fs.rm(path.join(dirs[0]![0], "claude"));
    await writeFakeClaude(path.join(dirs[0]![0], "claude"), log(), { prints: "2.0.0 (Claude Code)" });
    const report = await discoverClaude({ ...sb().options(sb().env()), mode: "all" });
    expect(report.candidates.map((c) => [c.path, c.label])).toEqual(
      dirs.map(([dir, label]) => [path.join(dir, "claude"), label]),
    );
    expect(report.candidates[0]).toMatchObject({ version: "2.0.0", code: "CLAUDE_UNSUPPORTED_VERSION" });
    expect(report.candidates[0]?.reason).toContain("older than the oldest supported 2.0.64");
    expect(report.chosen).toMatchObject({ path: path.join(dirs[1]![0], "claude"), source: "known-location" });
    expect(fakeRuns(log()).filter((run) => run.endsWith(" --version"))).toHaveLength(dirs.length);
  });
});
