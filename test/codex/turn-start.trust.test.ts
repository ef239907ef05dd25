import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveCodex } from "../../src/codex/client/resolve-codex.js";
import { CODEX_SPEC } from "../../src/codex/discovery/codex-spec.js";
import { explicitCodex } from "../../src/codex/launch/codex-launch.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { directoryChain } from "../../src/codex/trust/directory-chain.js";
import type { TurnRunnerOptions } from "../../src/codex/turn/turn-runner-options.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { collect, ofType } from "../helpers/collect.js";
import { startFakeSession } from "../helpers/fake-session.js";

const userAgent = (version: string) => ({ result: { userAgent: `codex_cli_rs/${version} (fake)` } });

let root = "";
let repo = "";
let env: NodeJS.ProcessEnv = {};
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-trust-start-")));
  repo = path.join(root, "repo");
  await mkdir(path.join(repo, "sub"), { recursive: true });
  env = { HOME: path.join(root, "home"), CODEX_HOME: path.join(root, "codex-home") };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function repositoryConfig(dir = repo): Promise<string> {
  await mkdir(path.join(dir, ".codex"), { recursive: true });
  const file = path.join(dir, ".codex", "config.toml");
  await writeFile(file, '[mcp_servers.x]\ncommand = "sh"\n');
  return file;
}

describe("the start sequence states the cwd's trust", () => {
  it("untrusted by default: stated for the cwd and every ancestor, on session.started and the terminal", async () => {
    const { fake, session } = startFakeSession({ turn: fakeSteps.textTurn("ok") }, { cwd: repo, env });
    const { events, terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
    const trust = { level: "untrusted", source: "default" };
    expect(ofType(events, "session.started")[0]?.trust).toEqual(trust);
    expect(terminal.trust).toEqual(trust);
    const config = fake.peer.requestsOf("thread/start")[0]?.params as { config: { projects: object } };
    expect(Object.keys(config.config.projects)).toEqual(directoryChain(repo));
    expect(Object.values(config.config.projects)).toEqual(
      directoryChain(repo).map(() => ({ trust_level: "untrusted" })),
    );
  });

  it("the user's entry for the project root trusts a subdirectory, with that path as the source", async () => {
    await mkdir(path.join(repo, ".git"));
    const { fake, session } = startFakeSession(
      {
        replies: {
          "config/read": { result: { config: { projects: { [repo]: { trust_level: "trusted" } } } } },
        },
        turn: fakeSteps.textTurn("ok"),
      },
      { cwd: path.join(repo, "sub"), env },
    );
    const { terminal } = await collect(session);
    expect(terminal.trust).toEqual({ level: "trusted", source: "user-config", path: repo });
    const config = fake.peer.requestsOf("thread/start")[0]?.params as {
      config: { projects: Record<string, unknown> };
    };
    expect(config.config.projects[path.join(repo, "sub")]).toEqual({ trust_level: "trusted" });
    expect(config.config.projects[repo]).toEqual({ trust_level: "trusted" });
  });

  it("an entry for a directory above the cwd's project root does not trust it (codex does not either)", async () => {
    // the user once trusted the directory holding their clones (or their home); the fork below is its own root
    await mkdir(path.join(repo, ".git"));
    for (const cwd of [repo, path.join(repo, "sub")]) {
      const { fake, session } = startFakeSession(
        {
          replies: {
            "config/read": { result: { config: { projects: { [root]: { trust_level: "trusted" } } } } },
          },
          turn: fakeSteps.textTurn("ok"),
        },
        { cwd, env },
      );
      const { terminal } = await collect(session);
      expect(terminal.trust).toEqual({ level: "untrusted", source: "default" });
      const config = fake.peer.requestsOf("thread/start")[0]?.params as {
        config: { projects: Record<string, unknown> };
      };
      expect(config.config.projects[repo]).toEqual({ trust_level: "untrusted" });
      expect(config.config.projects[root]).toEqual({ trust_level: "untrusted" });
    }
  });

  it("trustProject: false decides without reading the user's config; true reads it (an untrusted entry wins)", async () => {
    const untrustedEntry = {
      "config/read": { result: { config: { projects: { [repo]: { trust_level: "untrusted" } } } } },
    };
    const cases = [
      [false, {}, { level: "untrusted", source: "call" }, 0],
      [true, {}, { level: "trusted", source: "call" }, 1],
      [true, untrustedEntry, { level: "untrusted", source: "user-config", path: repo }, 1],
    ] as const;
    for (const [trustProject, replies, trust, reads] of cases) {
      const { fake, session } = startFakeSession(
        { replies, turn: fakeSteps.textTurn("ok") },
        { cwd: repo, env, trustProject },
      );
      const { terminal } = await collect(session);
      expect(terminal.trust).toEqual(trust);
      expect(fake.peer.requestsOf("config/read")).toHaveLength(reads);
    }
  });

  it("a session that ends before the decision carries no trust", async () => {
    const { session } = startFakeSession(
      { replies: { initialize: userAgent("0.66.0") }, turn: fakeSteps.textTurn("never") },
      { cwd: repo, env },
    );
    const { terminal } = await collect(session);
    expect(terminal.outcome).toBe("failed");
    expect(terminal).not.toHaveProperty("trust");
  });
});

describe("codex 0.80–0.87 load a repository's .codex/config.toml whatever the trust", () => {
  it("an untrusted turn where the cwd's repository has one is refused before thread/start", async () => {
    const file = await repositoryConfig();
    const { fake, session } = startFakeSession(
      { replies: { initialize: userAgent("0.80.0") }, turn: fakeSteps.textTurn("never") },
      { cwd: path.join(repo, "sub"), env },
    );
    const { events, terminal } = await collect(session);
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "spawn", code: "UNTRUSTED_PROJECT_CONFIG" });
    expect(terminal.failure?.message).toContain(file);
    expect(terminal.failure?.message).toMatch(/Upgrade Codex to 0\.89\.0 or newer/);
    expect(terminal.failure?.message).toMatch(/--trust-project/);
    expect(terminal.trust).toEqual({ level: "untrusted", source: "default" });
    expect(ofType(events, "session.started")).toEqual([]);
    expect(fake.peer.requestsOf("thread/start")).toEqual([]);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it.each([
    ["0.80.0 without such a file", "0.80.0", false, {}],
    ["0.80.0 trusted for the call", "0.80.0", true, { trustProject: true }],
    ["0.89.0 (layers need trust)", "0.89.0", true, {}],
    ["0.72.0 (no project layers)", "0.72.0", true, {}],
  ])("%s: the turn runs", async (_name, version, withFile, options) => {
    if (withFile) await repositoryConfig();
    const { session } = startFakeSession(
      { replies: { initialize: userAgent(version) }, turn: fakeSteps.textTurn("ok") },
      { cwd: repo, env, ...options },
    );
    expect((await collect(session)).terminal.outcome).toBe("completed");
  });

  it("the user's own CODEX_HOME above the cwd does not count as a repository's config", async () => {
    const home = path.join(root, "home");
    await repositoryConfig(home);
    const cwd = path.join(home, "work");
    await mkdir(cwd);
    const { session } = startFakeSession(
      { replies: { initialize: userAgent("0.80.0") }, turn: fakeSteps.textTurn("ok") },
      { cwd, env: { HOME: home } },
    );
    expect((await collect(session)).terminal.outcome).toBe("completed");
  });
});

describe("codex 0.80–0.121 apply a repository's .codex/rules whatever the trust", () => {
  // a rule `prefix_rule(pattern=["touch"], decision="allow")` there runs `touch` unasked and outside the sandbox
  async function repositoryRules(dir = repo): Promise<string> {
    const rules = path.join(dir, ".codex", "rules");
    await mkdir(rules, { recursive: true });
    await writeFile(path.join(rules, "default.rules"), 'prefix_rule(pattern=["touch"], decision="allow")\n');
    return rules;
  }
  const asking: Partial<TurnRunnerOptions> = {
    approvalMode: "untrusted",
    approvals: { onRequest: () => "decline" },
  };

  it.each(["0.80.0", "0.120.0", "0.121.0"])(
    "%s: an untrusted turn whose approvals the app answers is refused before thread/start",
    async (version) => {
      const rules = await repositoryRules();
      const { fake, session } = startFakeSession(
        { replies: { initialize: userAgent(version) }, turn: fakeSteps.textTurn("never") },
        { cwd: path.join(repo, "sub"), env, ...asking },
      );
      const { events, terminal } = await collect(session);
      expect(terminal.outcome).toBe("failed");
      expect(terminal.failure).toMatchObject({ source: "spawn", code: "UNTRUSTED_PROJECT_CONFIG" });
      expect(terminal.failure?.message).toContain(rules);
      expect(terminal.failure?.message).toMatch(/rules/);
      expect(terminal.failure?.message).toMatch(/Upgrade Codex to 0\.122\.0 or newer/);
      expect(ofType(events, "session.started")).toEqual([]);
      expect(fake.peer.requestsOf("thread/start")).toEqual([]);
    },
  );

  it.each([
    ["0.120.0 without approvals (nothing asks: a rule allows nothing more)", "0.120.0", {}],
    ["0.120.0 trusted for the call", "0.120.0", { ...asking, trustProject: true }],
    ["0.122.0 (rules need trust)", "0.122.0", asking],
    ["0.72.0 (no project layers)", "0.72.0", asking],
  ])("%s: the turn runs", async (_name, version, options) => {
    await repositoryRules();
    const { session } = startFakeSession(
      { replies: { initialize: userAgent(version) }, turn: fakeSteps.textTurn("ok") },
      { cwd: repo, env, ...options },
    );
    expect((await collect(session)).terminal.outcome).toBe("completed");
  });

  it("the user's own CODEX_HOME rules above the cwd do not count as a repository's", async () => {
    const home = path.join(root, "home");
    await repositoryRules(home);
    const cwd = path.join(home, "work");
    await mkdir(cwd);
    const { session } = startFakeSession(
      { replies: { initialize: userAgent("0.120.0") }, turn: fakeSteps.textTurn("ok") },
      { cwd, env: { HOME: home }, ...asking },
    );
    expect((await collect(session)).terminal.outcome).toBe("completed");
  });
});

describe("a repository's .codex/config.toml that is not a regular file", () => {
  // codex 0.87–0.135 read it at startup whatever the trust: a FIFO stalls `initialize`, a symlink to /dev/zero
  // grows codex by gigabytes a second; nothing may be started there
  it.each([
    ["a FIFO", (file: string) => execFileSync("mkfifo", [file])],
    ["a symlink to /dev/zero", (file: string) => symlinkSync("/dev/zero", file)],
    ["a symlink loop", (file: string) => symlinkSync(file, file)],
  ])("%s in the cwd's repository: the turn fails before codex starts", async (_name, make) => {
    await mkdir(path.join(repo, ".codex"));
    const file = path.join(repo, ".codex", "config.toml");
    make(file);
    const { fake, session } = startFakeSession(
      { turn: fakeSteps.textTurn("never") },
      { cwd: path.join(repo, "sub"), env, trustProject: true },
    );
    const { terminal } = await collect(session);
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "spawn", code: "PROJECT_CONFIG_NOT_A_FILE" });
    expect(terminal.failure?.message).toContain(file);
    expect(fake.launches).toHaveLength(0);
  });

  it("discovery is not run there either: its handshake probe would start codex in the cwd", async () => {
    await mkdir(path.join(repo, ".codex"));
    const file = path.join(repo, ".codex", "config.toml");
    symlinkSync("/dev/zero", file);
    const state = path.join(root, "state");
    await expect(
      resolveCodex(
        { env: { ...env, PATH: path.join(root, "empty"), RENNET_STATE_DIR: state } },
        { cwd: repo },
      ),
    ).rejects.toMatchObject({ code: "PROJECT_CONFIG_NOT_A_FILE", details: { files: [file] } });
  });

  it("discovery's handshake probe fails there without starting codex", async () => {
    await mkdir(path.join(repo, ".codex"));
    const file = path.join(repo, ".codex", "config.toml");
    execFileSync("mkfifo", [file]);
    const fake = new InMemoryAppServer({});
    const result = await CODEX_SPEC.verify?.run(explicitCodex("/opt/codex").launch, {
      launchOptions: { cwd: path.join(repo, "sub"), baseEnv: env },
      timeoutMs: 5_000,
      signal: new AbortController().signal,
      launcher: fake.launcher,
    });
    expect(result).toMatchObject({ type: "fail" });
    expect(result?.type === "fail" ? result.reason : "").toContain(file);
    expect(fake.launches).toHaveLength(0);
  });

  it("a regular file, a symlink to one, a dangling symlink and the user's own CODEX_HOME do not stop the turn", async () => {
    await mkdir(path.join(repo, ".codex"));
    await writeFile(path.join(root, "real.toml"), "");
    symlinkSync(path.join(root, "real.toml"), path.join(repo, ".codex", "config.toml"));
    await mkdir(path.join(repo, "sub", ".codex"));
    symlinkSync(path.join(root, "missing.toml"), path.join(repo, "sub", ".codex", "config.toml"));
    // CODEX_HOME is <root>/.codex, above the cwd: the user's own file, not the repository's
    const home = path.join(root, ".codex");
    await mkdir(home);
    execFileSync("mkfifo", [path.join(home, "config.toml")]);
    const { session } = startFakeSession(
      { turn: fakeSteps.textTurn("ok") },
      { cwd: path.join(repo, "sub"), env: { ...env, CODEX_HOME: home } },
    );
    expect((await collect(session)).terminal.outcome).toBe("completed");
  });
});
