import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { JsonRpcConnection } from "../../src/jsonl/json-rpc-connection.js";
import { createStdioLauncher } from "../../src/process/stdio-launcher.js";
import { text } from "../../src/testkit/model-scenarios.js";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { trustOverride } from "../../src/codex/trust/project-trust.js";
import { trustDirectories } from "../../src/codex/trust/trust-directories.js";
import { TEST_CODEX_BIN, testCodexVersion } from "../helpers/codex-bin.js";
import { git } from "../helpers/git.js";
import { runLoggedTurn, type LoggedTurn } from "../helpers/logged-turn.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";
import { recordingLauncher } from "../fixtures/hygiene/recording-launcher.js";

const caps = codexCapabilities(testCodexVersion());

// No side effects on the user's Codex home, against the real binary: a turn never rewrites the
// user's config.toml (with a control showing that codex does when nobody states the trust level), the user's own
// trust decision reaches codex, threads are ephemeral unless asked otherwise, and Rennet's own process never
// opens the credential file (codex may; only Rennet's process is observed).

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

/** Makes `dir` a git repository (with one commit, as users' projects are). */
function gitInit(dir: string): void {
  git(dir, "init", "-q");
  git(dir, "commit", "-q", "--allow-empty", "-m", "init");
}

async function configText(home: string): Promise<string> {
  return readFile(path.join(home, "config.toml"), "utf8");
}

async function rolloutFiles(home: string): Promise<string[]> {
  const sessions = path.join(home, "sessions");
  if (!existsSync(sessions)) return [];
  const entries = await readdir(sessions, { recursive: true });
  return entries.filter((entry) => /rollout-.*\.jsonl$/.test(path.basename(entry)));
}

/**
 * The control: what codex does when a client sends `thread/start` (full access, git cwd) without stating the
 * cwd's trust level in `config`. Drives the app-server directly, without the runner.
 */
async function threadStartWithoutTrustOverride(env: NodeJS.ProcessEnv, cwd: string): Promise<void> {
  const server = createStdioLauncher({ registryDir: null, trackIntervalMs: 0 })({
    command: TEST_CODEX_BIN,
    args: ["app-server"],
    env,
    cwd,
  });
  const conn = new JsonRpcConnection(server.transport, {
    notification: () => {},
    request: (frame) => conn.respondError(frame.id, -32601, "not supported by this test"),
    stray: () => {},
    invalid: () => {},
    closed: () => {},
  });
  try {
    await conn.request(
      "initialize",
      { clientInfo: { name: "rennet-test", title: "Rennet test", version: "0.0.0" } },
      { timeoutMs: 30_000 },
    );
    conn.notify("initialized");
    await conn.request(
      "thread/start",
      { cwd, approvalPolicy: "never", sandbox: "danger-full-access", ephemeral: true },
      { timeoutMs: 30_000 },
    );
  } finally {
    conn.close();
    await server.terminate();
  }
}

/** One "hello" turn of the real codex in `cwd`, in the fixture's throw-away home. */
async function helloTurn(cwd: string) {
  return createCodex({ codex: TEST_CODEX_BIN, env: fixture!.env, reapOrphans: false }).runStreamed({
    prompt: "hello",
    cwd,
  }).result;
}

describe("real codex: no side effects on the user's Codex home", () => {
  it("a completed turn in a git repository leaves config.toml byte-identical (control: codex writes it without the override)", async () => {
    fixture = await startRealCodex(text("ok"));
    gitInit(fixture.cwd);
    const before = await configText(fixture.home);

    const terminal = await helloTurn(fixture.cwd);
    expect(terminal.outcome).toBe("completed");
    expect(await configText(fixture.home)).toBe(before);

    // control: the same thread/start without the trust override makes codex persist the trust decision
    // (trustPersistedAtThreadStart; before 0.120 codex writes none, which the control then shows)
    await threadStartWithoutTrustOverride(fixture.env, fixture.cwd);
    const after = await configText(fixture.home);
    if (caps.trustPersistedAtThreadStart) {
      expect(after).not.toBe(before);
      expect(after).toContain(`[projects."${fixture.cwd}"]`);
      expect(after).toMatch(/trust_level\s*=\s*"trusted"/);
    } else {
      expect(after).toBe(before);
    }
  });

  it("a turn started in a subdirectory of a git repository leaves config.toml byte-identical", async () => {
    fixture = await startRealCodex(text("ok"));
    gitInit(fixture.cwd);
    const sub = path.join(fixture.cwd, "packages", "app");
    await mkdir(sub, { recursive: true });
    const before = await configText(fixture.home);
    const terminal = await helloTurn(sub);
    expect(terminal.outcome).toBe("completed");
    expect(await configText(fixture.home)).toBe(before);
  });

  it("the user's own trust decision (untrusted) is stated to codex and the config stays byte-identical", async () => {
    fixture = await startRealCodex(text("ok"));
    gitInit(fixture.cwd);
    const file = path.join(fixture.home, "config.toml");
    await writeFile(
      file,
      `${await configText(fixture.home)}\n[projects."${fixture.cwd}"]\ntrust_level = "untrusted"\n`,
    );
    const before = await configText(fixture.home);
    const recorder = recordingLauncher(createStdioLauncher({ registryDir: null }));

    const terminal = await createCodex({
      codex: TEST_CODEX_BIN,
      env: fixture.env,
      launcher: recorder.launcher,
    }).runStreamed({
      prompt: "hello",
      cwd: fixture.cwd,
    }).result;
    expect(terminal.outcome).toBe("completed");
    expect(terminal.trust).toEqual({ level: "untrusted", source: "user-config", path: fixture.cwd });
    // stated for the cwd and every ancestor: codex decides a repository's layer by its root's trust
    expect(recorder.sentParams("thread/start")?.config).toEqual(
      trustOverride(trustDirectories(fixture.cwd), { level: "untrusted" }),
    );
    expect(
      Object.keys((recorder.sentParams("thread/start")?.config as { projects: object }).projects),
    ).toContain(fixture.cwd);
    expect(await configText(fixture.home)).toBe(before);
  });

  // codex without ephemeralThreads (< 0.90) ignores `ephemeral` and writes a rollout file for every thread;
  // `rennet codex doctor` reports it (drift row `thread/start.ephemeral` missing)
  it.skipIf(!caps.ephemeralThreads)(
    `threads are ephemeral by default (no rollout file); ephemeral:false writes one${
      caps.ephemeralThreads ? "" : ` [skipped: codex ${caps.version} lacks the ephemeralThreads capability]`
    }`,
    async () => {
      fixture = await startRealCodex(text("ok"));
      const client = createCodex({ codex: TEST_CODEX_BIN, env: fixture.env, reapOrphans: false });

      const ephemeral = await client.runStreamed({ prompt: "hello", cwd: fixture.cwd }).result;
      expect(ephemeral.outcome).toBe("completed");
      expect(await rolloutFiles(fixture.home)).toEqual([]);

      const kept = await client.runStreamed({ prompt: "hello", cwd: fixture.cwd, ephemeral: false }).result;
      expect(kept.outcome).toBe("completed");
      const files = await rolloutFiles(fixture.home);
      expect(files).toHaveLength(1);
      expect(files[0]).toContain(kept.threadId ?? "no thread id");
    },
  );

  describe("Rennet's own process never touches the Codex home", () => {
    async function runLogged(touchCredentials = false): Promise<LoggedTurn & { home: string }> {
      if (!fixture) throw new Error("no fixture");
      const home = fixture.home;
      await writeFile(path.join(home, "auth.json"), JSON.stringify({ OPENAI_API_KEY: "sk-dummy-not-a-key" }));
      const turn = await runLoggedTurn({
        harness: "codex",
        bin: TEST_CODEX_BIN,
        cwd: fixture.cwd,
        env: fixture.env,
        touchCredentials,
      });
      return { ...turn, home };
    }

    const underHome = (paths: string[], home: string): string[] =>
      paths.filter(
        (p) => p === home || p.startsWith(`${home}${path.sep}`) || path.basename(p) === "auth.json",
      );

    it("a full turn: no path under CODEX_HOME, no auth.json (the logger does see Rennet's own files)", async () => {
      fixture = await startRealCodex(text("ok"));
      const { outcome, paths, home, stateDir } = await runLogged();
      expect(outcome).toBe("completed");
      expect(underHome(paths, home)).toEqual([]);
      // the logger works through ESM named imports: it saw the spawn registry and the process table
      expect(paths.some((p) => p.startsWith(path.join(stateDir, "spawned")))).toBe(true);
      expect(paths.some((p) => /^\/proc\/\d+\/stat$/.test(p))).toBe(process.platform === "linux");
    });

    it("control: code in Rennet's process that reads auth.json is caught", async () => {
      fixture = await startRealCodex(text("ok"));
      const { outcome, paths, home } = await runLogged(true);
      expect(outcome).toBe("completed");
      expect(underHome(paths, home)).toEqual([path.join(home, "auth.json")]);
    });
  });
});
