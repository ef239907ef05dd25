import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codexLaunchSpec, protocolCwd } from "../../../src/codex/launch/codex-launch.js";
import { discoverCodex, type DiscoverOptions } from "../../../src/codex/discovery/discover.js";
import { LaunchCwdError } from "../../../src/discovery/launch-cwd-error.js";
import { FAKE_WSL, sandboxPerTest } from "../../helpers/discovery-sandbox.js";

// The fake wsl.exe records its argv and runs `--exec <program>` on this machine, which plays the distribution.
let wslExe: string;
let wslLog: string;
const sb = sandboxPerTest(async (sandbox) => {
  wslExe = path.join(await sandbox.dir("windows"), "wsl.exe");
  await fs.writeFile(wslExe, `#!/bin/sh\nexec '${process.execPath}' '${FAKE_WSL}' "$@"\n`, { mode: 0o755 });
  wslLog = path.join(sandbox.root, "wsl.log");
});

function wslCalls(): string[][] {
  try {
    return readFileSync(wslLog, "utf8")
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as string[]);
  } catch {
    return [];
  }
}

function uncPath(linuxPath: string, host = "wsl.localhost", distro = "FakeDistro"): string {
  return `\\\\${host}\\${distro}${linuxPath.replace(/\//g, "\\")}`;
}

async function loginShell(loginDir: string): Promise<string> {
  const shell = path.join(await sb().dir("distro-shell"), "bash");
  await fs.writeFile(
    shell,
    [
      "#!/bin/sh",
      'echo "motd: welcome to FakeDistro"',
      "for last; do :; done",
      `PATH="${loginDir}:/usr/bin:/bin"; export PATH`,
      '/bin/sh -c "$last"',
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return shell;
}

function options(env: NodeJS.ProcessEnv, extra: Partial<DiscoverOptions> = {}): DiscoverOptions {
  return {
    env,
    platform: "win32",
    cwd: uncPath(path.join(sb().root, "repo")),
    cacheDir: sb().cacheDir,
    systemRoot: sb().systemRoot,
    wslExe,
    timeoutMs: 20_000,
    ...extra,
  };
}

describe("discoverCodex in a WSL locus (fake wsl.exe)", () => {
  it("discovers inside the distribution through wsl.exe and launches with the distro-native cwd and login PATH", async () => {
    await sb().dir("repo");
    const loginDir = await sb().dir("distro-login-bin");
    const codex = await sb().fakeCodex(loginDir);
    const shell = await loginShell(loginDir);
    // the "Windows" environment; the fake passes it through, so HOME and SHELL play the distribution's
    const env = sb().env({
      FAKE_WSL_DISTRO: "FakeDistro",
      FAKE_WSL_LOG: wslLog,
      SHELL: shell,
      USERPROFILE: "C:\\Users\\bob",
    });
    const report = await discoverCodex(options(env));

    expect(report.locus).toEqual({ type: "wsl", distro: "FakeDistro" });
    expect(report.platform).toBe("linux");
    expect(report.loginShell).toMatchObject({ type: "ok", shell });
    expect(report.available).toBe(true);
    const loginPath = `${loginDir}:/usr/bin:/bin:/nonexistent-rennet-bin`;
    expect(report.chosen).toEqual({
      launch: { type: "wsl", wslExe, distro: "FakeDistro", argv: [codex], env: { PATH: loginPath } },
      path: codex,
      version: "0.171.0",
      source: "login-shell-path",
    });

    const spec = codexLaunchSpec(report.chosen!.launch, ["app-server"], {
      cwd: uncPath(path.join(sb().root, "repo"), "wsl$"),
      baseEnv: { SystemRoot: "C:\\Windows" },
    });
    expect(spec.command).toBe(wslExe);
    expect(spec.cwd).toBeUndefined();
    expect(spec.args).toEqual([
      "-d",
      "FakeDistro",
      "--cd",
      path.join(sb().root, "repo"),
      "--exec",
      "/usr/bin/env",
      `PATH=${loginPath}`,
      codex,
      "app-server",
    ]);

    // every process went through wsl.exe into the distribution, none through a shell
    const calls = wslCalls();
    expect(calls.length).toBeGreaterThanOrEqual(5); // survey, login shell, scan, --version, app-server
    for (const call of calls) expect(call.slice(0, 2)).toEqual(["-d", "FakeDistro"]);
    for (const call of calls) expect(call).toContain("--exec");
    expect(calls.some((call) => call.includes("app-server") && call.includes(codex))).toBe(true);
  });

  it("maps \\\\wsl$ and \\\\wsl.localhost paths, and refuses a cwd that is not in the distribution before spawning", () => {
    const command = { type: "wsl", wslExe: "wsl.exe", distro: "FakeDistro", argv: ["codex"] } as const;
    expect(protocolCwd(command, "\\\\wsl$\\FakeDistro\\home\\bob\\repo")).toBe("/home/bob/repo");
    expect(protocolCwd(command, "\\\\wsl.localhost\\fakedistro\\home\\bob")).toBe("/home/bob");
    expect(() => protocolCwd(command, "C:\\Users\\bob\\repo")).toThrow(LaunchCwdError);
    expect(() => protocolCwd(command, "\\\\wsl.localhost\\Other\\home\\bob")).toThrow(
      /is in the WSL distribution "Other"/,
    );
  });

  it("reports unavailable with the reason when the distribution cannot be reached", async () => {
    const env = sb().env({ FAKE_WSL_DISTRO: "SomethingElse", FAKE_WSL_LOG: wslLog });
    const report = await discoverCodex(options(env));
    expect(report.available).toBe(false);
    expect(report.locus).toEqual({ type: "wsl", distro: "FakeDistro" });
    expect(report.reason).toMatch(
      /^could not reach WSL distribution "FakeDistro" through .*wsl\.exe: exited with code 1: There is no distribution/,
    );
  });
});
