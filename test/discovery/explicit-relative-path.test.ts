/**
 * A relative explicit path (`createClaudeCode({ claude: "bin/claude" })`, `createCodex({ codex: "bin/codex" })`)
 * names a file in the process's current directory, the directory it is checked in. The session starts in the
 * repository, where the same relative path could name a file the repository supplies: it must never run.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { usableExplicitClaude } from "../../src/claude/discovery/explicit-claude.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { explicitCodex } from "../../src/codex/launch/codex-launch.js";
import { usableExplicitCodex } from "../../src/codex/launch/explicit-codex.js";
import { absoluteCommand } from "../../src/discovery/command-path.js";
import { InMemoryAppServer, InMemoryClaude } from "../../src/testkit/index.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";
import { fakeRuns, writeFakeClaude } from "../claude/discovery/fake-claude-files.js";

const sb = sandboxPerTest();
const before = process.cwd();
afterEach(() => process.chdir(before));

/** The process's directory with the user's own `bin/<name>`, and a repository with a decoy `bin/<name>`. */
async function world(name: string): Promise<{ own: string; repo: string; decoyLog: string; ownLog: string }> {
  const shellDir = await sb().dir("shell-dir");
  const repo = await sb().dir("repo");
  const ownLog = path.join(sb().root, "own.log");
  const decoyLog = path.join(sb().root, "decoy.log");
  const own = await writeFakeClaude(path.join(shellDir, "bin", name), ownLog);
  await writeFakeClaude(path.join(repo, "bin", name), decoyLog);
  process.chdir(shellDir);
  return { own, repo, decoyLog, ownLog };
}

describe.skipIf(process.platform === "win32")("a relative explicit path", () => {
  it("claude: is resolved once against the process's directory, and the repository's file never runs", async () => {
    const w = await world("claude");
    const env = sb().env({ IS_SANDBOX: "1" });
    const claude = createClaudeCode({ claude: "bin/claude", env, reapOrphans: false });
    await claude.run({ prompt: "hi", cwd: w.repo }).catch(() => undefined);
    expect(fakeRuns(w.decoyLog)).toEqual([]);
    expect(fakeRuns(w.ownLog).length).toBeGreaterThan(0);
    expect(await usableExplicitClaude("bin/claude", "linux")).toMatchObject({
      path: w.own,
      launch: { type: "native", command: w.own },
    });
  });

  it("codex: is resolved once against the process's directory, and the repository's file never runs", async () => {
    const w = await world("codex");
    const codex = createCodex({ codex: "./bin/codex", env: sb().env(), reapOrphans: false });
    await codex.run({ prompt: "hi", cwd: w.repo }).catch(() => undefined);
    expect(fakeRuns(w.decoyLog)).toEqual([]);
    expect(fakeRuns(w.ownLog).length).toBeGreaterThan(0);
    expect((await codex.resolveCodex()).path).toBe(w.own);
    expect(await usableExplicitCodex("bin/codex", "linux")).toMatchObject({
      path: w.own,
      launch: { type: "native", command: w.own },
    });
  });
});

describe("a relative command given with an injected launcher", () => {
  it("reaches the launcher resolved against the process's directory: the codex option and RENNET_<NAME>_BIN", async () => {
    const here = process.cwd();
    const launcher = new InMemoryAppServer({}).launcher;
    const given = createCodex({ codex: "bin/codex", launcher });
    expect((await given.resolveCodex()).launch).toEqual({
      type: "native",
      command: path.join(here, "bin/codex"),
    });
    expect(explicitCodex("./bin/codex").path).toBe(path.join(here, "bin/codex"));
    const fromEnv = createCodex({ launcher, env: { RENNET_CODEX_BIN: "./bin/codex" } });
    expect((await fromEnv.resolveCodex()).launch).toEqual({
      type: "native",
      command: path.join(here, "bin/codex"),
    });
    const fake = new InMemoryClaude();
    const env = { RENNET_CLAUDE_BIN: "bin/claude", IS_SANDBOX: "1" };
    await createClaudeCode({ launcher: fake.launcher, env }).run({ prompt: "hi", cwd: sb().root });
    const commands = fake.launches.map((launch) => launch.spec.command);
    expect(commands).toEqual([path.join(here, "bin/claude")]);
  });
});

describe("absoluteCommand (pure)", () => {
  it.each([
    ["bin/codex", "linux", "/home/me", "/home/me/bin/codex"],
    ["./codex", "linux", "/home/me", "/home/me/codex"],
    ["../x/codex", "linux", "/home/me", "/home/x/codex"],
    ["/opt/codex", "linux", "/home/me", "/opt/codex"],
    ["codex", "linux", "/home/me", "codex"],
    [".\\bin\\codex.exe", "win32", "C:\\me", "C:\\me\\bin\\codex.exe"],
    ["\\bin\\codex.exe", "win32", "D:\\me", "D:\\bin\\codex.exe"],
    ["C:\\x\\codex.exe", "win32", "D:\\me", "C:\\x\\codex.exe"],
    ["\\\\server\\share\\codex.exe", "win32", "D:\\me", "\\\\server\\share\\codex.exe"],
    ["codex.exe", "win32", "D:\\me", "codex.exe"],
  ] as const)("%s on %s from %s is %s", (command, platform, base, expected) => {
    expect(absoluteCommand(command, platform, base)).toBe(expected);
  });
});
