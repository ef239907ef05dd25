/**
 * A relative `CODEX_HOME` (`env: { CODEX_HOME: ".codex-home" }`) names a directory from the process's current
 * directory, where Rennet reads it. codex resolves it against its own working directory, the repository: every
 * codex Rennet starts gets it absolute, so a repository holding a directory of that name never supplies the user's
 * config (its MCP servers, its trust entries).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkProjectTrust, explicitCodex } from "../../src/index.js";
import { codexLaunchSpec } from "../../src/codex/launch/codex-launch.js";
import { codexHomeOf } from "../../src/codex/trust/untrusted-project-guard.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";

describe("a relative CODEX_HOME", () => {
  it("reaches codex resolved against the process's directory, the one Rennet reads", async () => {
    const expected = path.resolve(".codex-home");
    const fake = new InMemoryAppServer({
      replies: { initialize: { result: { userAgent: "codex_cli_rs/0.171.0 (fake)" } } },
    });
    await checkProjectTrust({
      codex: explicitCodex("/opt/codex"),
      cwd: path.resolve("test"),
      env: { CODEX_HOME: ".codex-home" },
      launcher: fake.launcher,
    }).catch(() => undefined);
    expect(fake.launches[0]?.spec.env?.CODEX_HOME).toBe(expected);
    expect(fake.launches[0]?.spec.cwd).toBe(path.resolve("test"));
    expect(codexHomeOf({ CODEX_HOME: ".codex-home" })).toBe(expected);
  });

  it("is left alone when absolute or unset, and inside WSL", () => {
    const native = { type: "native", command: "/opt/codex" } as const;
    expect(codexLaunchSpec(native, [], { baseEnv: { CODEX_HOME: "/h" } }).env?.CODEX_HOME).toBe("/h");
    expect(codexLaunchSpec(native, [], { baseEnv: {} }).env).toEqual({});
    const wsl = {
      type: "wsl",
      wslExe: "C:\\Windows\\System32\\wsl.exe",
      distro: "U",
      argv: ["codex"],
    } as const;
    expect(codexLaunchSpec(wsl, [], { baseEnv: { CODEX_HOME: "rel" } }).env).toEqual({ CODEX_HOME: "rel" });
  });
});
