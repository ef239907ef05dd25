import { describe, expect, it } from "vitest";
import { probeHandshake } from "../../src/codex/discovery/handshake-probe.js";
import {
  isStateDbRace,
  STATE_DB_RACE_STARTS,
  stateDbRaceRetryDelayMs,
} from "../../src/codex/versions/state-db-race.js";
import { CodexTurnRunner } from "../../src/codex/turn/turn-runner.js";
import { turnRuntime } from "../../src/codex/turn/turn-child.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import { fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { collect, ofType } from "../helpers/collect.js";
import { STATE_DB_RACE_WARNING } from "../../src/internal/test-hooks.js";

// What codex 0.135–0.166 (runtime) and 0.131–0.134 (db) print when they lose the state-database migration race
// (seen on real binaries: 8 app-servers started at once on a fresh CODEX_HOME).
const RACE_0135 =
  'WARNING: proceeding, even though we could not update PATH: Refusing to create helper binaries under temporary dir "/tmp"\n' +
  "Error: failed to initialize sqlite state runtime under /tmp/h: failed to initialize state runtime at /tmp/h: " +
  "while executing migration 19: error returned from database: (code: 1) duplicate column name: defer_loading\n\n" +
  "Stack backtrace:\n   0: <unknown>\n   1: <unknown>\n";
const RACE_0131 =
  "Error: failed to initialize sqlite state db at /tmp/h/state_5.sqlite: failed to initialize state runtime at " +
  "/tmp/h: while executing migrations: error returned from database: (code: 1555) UNIQUE constraint failed: " +
  "_sqlx_migrations.version\n";

const doneTurn: FakeScript = {
  turn: [
    fakeSteps.turnStarted(),
    ...fakeSteps.agentMessage("m", ["done"]),
    fakeSteps.turnCompleted("completed"),
  ],
};

const racing: FakeScript = { stderr: RACE_0135, replies: { initialize: { exit: { code: 1 } } } };

/** A launcher whose first `losses` launches lose the race (each a fake of its own), the rest follow `then`. */
function racingLauncher(
  losses: number,
  then: FakeScript = doneTurn,
  lose: FakeScript = racing,
): { launcher: Launcher; fakes: InMemoryAppServer[] } {
  const fakes: InMemoryAppServer[] = [];
  const launcher: Launcher = (spec) => {
    const fake = new InMemoryAppServer(fakes.length < losses ? lose : then);
    fakes.push(fake);
    return fake.launcher(spec);
  };
  return { launcher, fakes };
}

function session(launcher: Launcher): CodexTurnRunner {
  return new CodexTurnRunner({
    runtime: turnRuntime,
    prompt: "hi",
    cwd: "/work/repo",
    codex: { type: "native", command: "codex" },
    launcher,
  });
}

const warnings = (events: HarnessEvent[]) =>
  ofType(events, "warning").filter((event) => event.method === STATE_DB_RACE_WARNING);

describe("codex's state-database race at start (isStateDbRace, the retry wait)", () => {
  it("recognises both wordings and nothing else", () => {
    expect(isStateDbRace(RACE_0135)).toBe(true);
    expect(isStateDbRace(RACE_0131)).toBe(true);
    expect(isStateDbRace("Error: failed to load config.toml: invalid type\n")).toBe(false);
    expect(isStateDbRace("")).toBe(false);
  });

  it("waits longer after each failed start, within a random spread", () => {
    expect(stateDbRaceRetryDelayMs(1, () => 0)).toBe(50);
    expect(stateDbRaceRetryDelayMs(1, () => 0.999)).toBe(150);
    expect(stateDbRaceRetryDelayMs(3, () => 0)).toBe(150);
    expect(stateDbRaceRetryDelayMs(3, () => 0.5)).toBe(300);
  });
});

describe("a session whose codex loses the state-database race", () => {
  it("starts codex again, says so in a warning per lost start, and completes; every lost child is terminated", async () => {
    const { launcher, fakes } = racingLauncher(2);
    const { events, terminal } = await collect(session(launcher));
    expect(terminal.outcome).toBe("completed");
    expect(terminal.finalMessage).toBe("done");
    expect(fakes).toHaveLength(3);
    for (const fake of fakes) expect(fake.launches[0]?.terminated).toBe(true);
    const said = warnings(events);
    expect(said.map((w) => w.message)).toEqual([
      expect.stringMatching(/exited with code 1 before answering initialize: .*start 2 of at most 4\)$/),
      expect.stringMatching(/start 3 of at most 4\)$/),
    ]);
    expect(said[0]?.native).toEqual({ exitCode: 1, signal: null, stderrTail: RACE_0135 });
    // the warnings come first; the stream is still numbered without a gap and ends with its one terminal frame
    expect(events.map((e) => e.type).slice(0, 3)).toEqual(["warning", "warning", "session.started"]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(ofType(events, "terminal")).toHaveLength(1);
    // the lost children were asked nothing but initialize; the last one ran the turn
    for (const fake of fakes.slice(0, 2))
      expect(fake.peer.received.map((f) => f.method)).toEqual(["initialize"]);
    expect(fakes[2]?.peer.requestsOf("turn/start")).toHaveLength(1);
  });

  it(`gives up after ${STATE_DB_RACE_STARTS} starts with the last exit failure and codex's stderr`, async () => {
    const { launcher, fakes } = racingLauncher(99);
    const { events, terminal } = await collect(session(launcher));
    expect(fakes).toHaveLength(STATE_DB_RACE_STARTS);
    expect(warnings(events)).toHaveLength(STATE_DB_RACE_STARTS - 1);
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "exit", exitCode: 1, stderrTail: RACE_0135 });
    for (const fake of fakes) expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("does not start again when codex exits before initialize for another reason", async () => {
    const { launcher, fakes } = racingLauncher(
      1,
      {},
      {
        stderr: "Error: failed to load configuration: bad key\n",
        replies: { initialize: { exit: { code: 1 } } },
      },
    );
    const { events, terminal } = await collect(session(launcher));
    expect(fakes).toHaveLength(1);
    expect(warnings(events)).toEqual([]);
    expect(terminal.failure).toMatchObject({ source: "exit", exitCode: 1 });
  });

  it("does not start again once initialize was answered, whatever codex said", async () => {
    const { launcher, fakes } = racingLauncher(
      1,
      {},
      {
        stderr: RACE_0135,
        afterInitialize: [{ exit: { code: 1 } }],
        replies: { "thread/start": { noReply: true } },
      },
    );
    const { terminal } = await collect(session(launcher));
    expect(fakes).toHaveLength(1);
    expect(terminal.failure).toMatchObject({ source: "exit", exitCode: 1 });
  });

  it("a cancel during the wait before the next start ends the session at once, starting nothing more", async () => {
    const { launcher, fakes } = racingLauncher(99);
    const runner = session(launcher);
    const events: HarnessEvent[] = [];
    for await (const event of runner.events) {
      events.push(event);
      if (event.type === "warning") runner.cancel(new Error("enough"));
    }
    const terminal = await runner.result;
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation).toMatchObject({ via: "before-turn" });
    expect(fakes).toHaveLength(1);
    expect(fakes[0]?.launches[0]?.terminated).toBe(true);
  });
});

describe("the discovery handshake probe and the race", () => {
  const spec = { command: "codex", args: ["app-server"] };

  it("starts codex again and passes", async () => {
    const { launcher, fakes } = racingLauncher(2, {});
    const result = await probeHandshake(spec, { launcher, timeoutMs: 5_000 });
    expect(result.type).toBe("pass");
    expect(fakes).toHaveLength(3);
    for (const fake of fakes) expect(fake.launches[0]?.terminated).toBe(true);
  });

  it(`fails after ${STATE_DB_RACE_STARTS} starts naming codex's Error line, not the backtrace after it`, async () => {
    const { launcher, fakes } = racingLauncher(99, {});
    const result = await probeHandshake(spec, { launcher, timeoutMs: 5_000 });
    expect(fakes).toHaveLength(STATE_DB_RACE_STARTS);
    expect(result).toMatchObject({
      type: "fail",
      reason: expect.stringMatching(
        /^exited with code 1 before answering initialize: Error: failed to initialize sqlite state runtime/,
      ),
    });
  });

  it("does not start again for another exit", async () => {
    const { launcher, fakes } = racingLauncher(1, {}, { replies: { initialize: { exit: { code: 1 } } } });
    const result = await probeHandshake(spec, { launcher, timeoutMs: 5_000 });
    expect(result.type).toBe("fail");
    expect(fakes).toHaveLength(1);
  });

  it("an abort during the wait ends the probe as aborted", async () => {
    const controller = new AbortController();
    const { fakes } = racingLauncher(0);
    const launcher: Launcher = (s) => {
      const fake = new InMemoryAppServer(racing);
      fakes.push(fake);
      const proc = fake.launcher(s);
      void proc.exit.then(() => setTimeout(() => controller.abort(), 5));
      return proc;
    };
    const result = await probeHandshake(spec, { launcher, timeoutMs: 5_000, signal: controller.signal });
    expect(result).toMatchObject({ type: "fail", aborted: true });
    expect(fakes).toHaveLength(1);
  });
});
