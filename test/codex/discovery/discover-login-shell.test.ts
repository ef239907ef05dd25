import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverCodex } from "../../../src/codex/discovery/discover.js";
import { sandboxPerTest } from "../../helpers/discovery-sandbox.js";

const sb = sandboxPerTest();

describe("discoverCodex: login-shell PATH", () => {
  it("finds a codex that only the login shell's PATH has, despite rc-file noise, and launches with that PATH", async () => {
    const loginOnly = await sb().fakeCodex(await sb().dir("login-only"));
    const shell = path.join(await sb().dir("shell"), "fakesh");
    await fs.writeFile(
      shell,
      [
        "#!/bin/sh",
        'echo "Welcome back! (from .zshrc)"',
        'echo "PATH=/this/is/noise"',
        'echo "__RENNET_PATH_START_0000__"',
        `PATH="${path.dirname(loginOnly)}:/usr/bin:/bin"; export PATH`,
        "for last; do :; done",
        '/bin/sh -c "$last"',
        'echo "bye (from .zlogout)"',
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    const env = sb().env({ SHELL: shell, PATH: "/nonexistent-gui-path" });
    const report = await discoverCodex(sb().options(env));
    expect(report.loginShell).toMatchObject({ type: "ok", shell, flags: "-i -l", entries: 3, cached: false });
    expect(report.chosen?.path).toBe(loginOnly);
    expect(report.chosen?.source).toBe("login-shell-path");
    expect(report.chosen?.launch.env?.PATH).toBe(
      `${path.dirname(loginOnly)}:/usr/bin:/bin:/nonexistent-gui-path`,
    );
    // warm: the login shell is not run again (its result is cached by the shell and rc files)
    const warm = await discoverCodex(sb().options(env));
    expect(warm.loginShell).toMatchObject({ type: "ok", cached: true });
    expect(warm.chosen?.path).toBe(loginOnly);
  });

  it("falls back to a plain login shell when the interactive one fails, and reports a shell that hangs", async () => {
    const shell = path.join(await sb().dir("shell"), "fakesh");
    await fs.writeFile(
      shell,
      [
        "#!/bin/sh",
        'case "$1" in -i) echo "no tty for you" >&2; exit 1;; esac',
        "for last; do :; done",
        'PATH="/from/login:/usr/bin:/bin"; export PATH',
        '/bin/sh -c "$last"',
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    const report = await discoverCodex(sb().options(sb().env({ SHELL: shell }), { cache: "off" }));
    expect(report.loginShell).toMatchObject({ type: "ok", flags: "-l" });

    const hanging = path.join(await sb().dir("shell2"), "hangsh");
    await fs.writeFile(hanging, "#!/bin/sh\n/bin/sleep 30 &\nwait\n", { mode: 0o755 });
    const slow = await discoverCodex(
      sb().options(sb().env({ SHELL: hanging }), { cache: "off", loginShellTimeoutMs: 300 }),
    );
    expect(slow.loginShell.type).toBe("failed");
    if (slow.loginShell.type === "failed")
      expect(slow.loginShell.reason).toMatch(/^-i -l: timed out after 300 ms/);
  });
});

describe("discoverCodex: a login shell that prints a lot", () => {
  /** A fake login shell printing `before` banner lines, then the PATH command's output, then `after` lines. */
  async function chattyShell(name: string, before: number, after: number, loginDir: string): Promise<string> {
    const shell = path.join(await sb().dir(name), "chattysh");
    const banner = (count: number): string =>
      `i=0; while [ $i -lt ${count} ]; do echo "Welcome banner line $i: motd fortune text text text text"; i=$((i+1)); done`;
    await fs.writeFile(
      shell,
      [
        "#!/bin/sh",
        banner(before),
        `PATH="${loginDir}:/usr/bin:/bin"; export PATH`,
        "for last; do :; done",
        '/bin/sh -c "$last"',
        banner(after),
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    return shell;
  }

  it("finds the PATH after a banner of any size (here ~400 KiB), keeping only a bounded tail", async () => {
    const loginOnly = await sb().fakeCodex(await sb().dir("login-only"));
    const shell = await chattyShell("shell", 6000, 0, path.dirname(loginOnly));
    const report = await discoverCodex(sb().options(sb().env({ SHELL: shell }), { cache: "off" }));
    expect(report.loginShell).toMatchObject({ type: "ok", flags: "-i -l", entries: 3 });
    expect(report.chosen?.path).toBe(loginOnly);
  });

  it("says the output was cut when the markers are not in the kept tail", async () => {
    const shell = await chattyShell("shell", 0, 6000, "/from/login");
    const report = await discoverCodex(sb().options(sb().env({ SHELL: shell }), { cache: "off" }));
    expect(report.loginShell.type).toBe("failed");
    if (report.loginShell.type === "failed")
      expect(report.loginShell.reason).toBe(
        "-i -l: printed no PATH between the markers in the last 256 KiB of its output (everything before was cut); " +
          "-l: printed no PATH between the markers in the last 256 KiB of its output (everything before was cut)",
      );
  });
});

describe("discoverCodex: a slow login shell is paid once", () => {
  it("remembers a timed-out login shell (reason and time), runs it again only with --refresh or after an rc file changes", async () => {
    const runs = path.join(sb().root, "shell-runs.log");
    const hanging = path.join(await sb().dir("shell3"), "hangsh");
    await fs.writeFile(hanging, `#!/bin/sh\necho run >> '${runs}'\n/bin/sleep 30 &\nwait\n`, { mode: 0o755 });
    const env = sb().env({ SHELL: hanging });
    const runCount = async (): Promise<number> =>
      (await fs.readFile(runs, "utf8").catch(() => "")).split("\n").filter(Boolean).length;

    const cold = await discoverCodex(sb().options(env, { loginShellTimeoutMs: 300 }));
    expect(cold.loginShell).toMatchObject({ type: "failed", cached: false });
    const coldRuns = await runCount();
    expect(coldRuns).toBeGreaterThan(0);

    const warm = await discoverCodex(sb().options(env, { loginShellTimeoutMs: 300 }));
    expect(warm.loginShell).toMatchObject({ type: "failed", cached: true });
    if (warm.loginShell.type === "failed") expect(warm.loginShell.reason).toMatch(/timed out after 300 ms/);
    expect(await runCount()).toBe(coldRuns);

    const refreshed = await discoverCodex(sb().options(env, { loginShellTimeoutMs: 300, cache: "refresh" }));
    expect(refreshed.loginShell).toMatchObject({ type: "failed", cached: false });
    expect(await runCount()).toBe(coldRuns * 2);

    await fs.writeFile(path.join(sb().home, ".profile"), "# changed\n");
    const changed = await discoverCodex(sb().options(env, { loginShellTimeoutMs: 300 }));
    expect(changed.loginShell).toMatchObject({ type: "failed", cached: false });
  });

  it("--codex-bin never runs the login shell", async () => {
    const runs = path.join(sb().root, "shell-runs-bin.log");
    const shell = path.join(await sb().dir("shell4"), "countsh");
    await fs.writeFile(shell, `#!/bin/sh\necho run >> '${runs}'\nexit 1\n`, { mode: 0o755 });
    const codex = await sb().fakeCodex(await sb().dir("explicit"));
    const report = await discoverCodex(sb().options(sb().env({ SHELL: shell }), { codexBin: codex }));
    expect(report.chosen?.path).toBe(codex);
    expect(report.loginShell).toEqual({
      type: "skipped",
      reason: "not needed: --codex-bin is launched as given",
    });
    await expect(fs.access(runs)).rejects.toThrow();
  });
});
