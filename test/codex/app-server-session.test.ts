/**
 * AppServerSession on the in-memory fake: `ready` resolves with the initialize answer or rejects with a typed
 * not-ready reason, the state-database race restarts a start, retired children are never heard from, and
 * every tree is ended once.
 */
import { describe, expect, it } from "vitest";
import { AppServerNotReadyError } from "../../src/codex/app-server/app-server-not-ready.js";
import { AppServerSession } from "../../src/codex/app-server/app-server-session.js";
import type { StateDbRaceRestart } from "../../src/codex/versions/state-db-race.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import { fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";

const spec = { command: "codex", args: ["app-server"] };
const RACE = "Error: failed to initialize sqlite state runtime under /tmp/h: duplicate column name\n";

function open(launcher: Launcher, options: Partial<Parameters<typeof AppServerSession.open>[0]> = {}) {
  return AppServerSession.open({ spec, launcher, initializeTimeoutMs: 5_000, random: () => 0, ...options });
}

async function notReady(session: AppServerSession): Promise<AppServerNotReadyError> {
  const error = await session.ready.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppServerNotReadyError);
  return error as AppServerNotReadyError;
}

describe("AppServerSession", () => {
  it("is ready with the initialize answer, then hands the current child's notifications to its owner", async () => {
    const fake = new InMemoryAppServer({
      afterInitialize: [fakeSteps.notify("configWarning", { summary: "x" })],
    });
    const methods: string[] = [];
    const session = open(fake.launcher, {
      handlers: {
        notification: (f) => methods.push(f.method),
        request: () => {},
        stray: () => {},
        invalid: () => {},
      },
    });
    const answer = await session.ready;
    expect(answer.codexVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(fake.peer.received.map((frame) => frame.method)).toEqual(["initialize", "initialized"]);
    await expect.poll(() => methods).toEqual(["configWarning"]);
    await session.end();
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it.each<[string, FakeScript, string, RegExp]>([
    [
      "exited",
      { replies: { initialize: { exit: { code: 3 } } } },
      "exited",
      /^exited with code 3 before answering initialize/,
    ],
    [
      "refused",
      { replies: { initialize: { error: { code: -32600, message: "no" } } } },
      "refused",
      /^initialize was answered with an error: no \(-32600\)$/,
    ],
    [
      "malformed",
      { replies: { initialize: { result: { hello: 1 } } } },
      "malformed",
      /not a codex executable/,
    ],
  ])("is not ready when codex %s", async (_what, script, kind, message) => {
    const fake = new InMemoryAppServer(script);
    const session = open(fake.launcher);
    const error = await notReady(session);
    expect(error).toMatchObject({ code: "APP_SERVER_NOT_READY", reason: { kind } });
    expect(error.message).toMatch(message);
    await session.end();
    expect(fake.launches).toHaveLength(1);
  });

  it("is not ready, stalled, when initialize gets no answer, after giving codex its stdin EOF", async () => {
    const fake = new InMemoryAppServer({ replies: { initialize: { noReply: true } } });
    const session = open(fake.launcher, { initializeTimeoutMs: 30 });
    const error = await notReady(session);
    expect(error.reason).toMatchObject({ kind: "stalled", timeout: { method: "initialize", timeoutMs: 30 } });
    expect(error.message).toMatch(/^no initialize response within 30 ms/);
    await session.end();
  });

  it("is not ready, spawn, when the child could not start", async () => {
    const launcher: Launcher = (s) => {
      const child = new InMemoryAppServer().launcher(s);
      return {
        ...child,
        exit: Promise.resolve({ type: "spawn-error", errno: "ENOENT", message: "no codex" }),
      };
    };
    const error = await notReady(open(launcher));
    expect(error.reason).toMatchObject({ kind: "spawn" });
    expect(error.message).toBe("could not start (ENOENT: no codex) before answering initialize");
  });

  it("starts again after the state-database race, telling its owner, and ends every tree it started", async () => {
    const fakes: InMemoryAppServer[] = [];
    const launcher: Launcher = (s) => {
      const fake = new InMemoryAppServer(
        fakes.length < 2 ? { stderr: RACE, replies: { initialize: { exit: { code: 1 } } } } : {},
      );
      fakes.push(fake);
      return fake.launcher(s);
    };
    const restarts: StateDbRaceRestart[] = [];
    const session = open(launcher, { onRestart: (r) => restarts.push(r) });
    await session.ready;
    expect(restarts.map((r) => [r.nextStart, r.delayMs, r.exitCode])).toEqual([
      [2, 50, 1],
      [3, 100, 1],
    ]);
    expect(fakes.map((fake) => fake.launches[0]?.terminated)).toEqual([true, true, false]);
    await session.end();
    expect(fakes[2]?.launches[0]?.terminated).toBe(true);
  });

  it("rejects ready with SESSION_ENDED when ended first, and with the signal's reason on abort", async () => {
    const silent: FakeScript = { replies: { initialize: { noReply: true } } };
    const ended = open(new InMemoryAppServer(silent).launcher);
    void ended.end();
    await expect(ended.ready).rejects.toMatchObject({ code: "SESSION_ENDED" });
    const controller = new AbortController();
    const fake = new InMemoryAppServer(silent);
    const aborted = open(fake.launcher, { signal: controller.signal });
    controller.abort("enough");
    await expect(aborted.ready).rejects.toBe("enough");
    await expect.poll(() => fake.launches[0]?.terminated).toBe(true);
    const before = open(new InMemoryAppServer().launcher, { signal: controller.signal });
    await expect(before.ready).rejects.toBe("enough");
    expect(before.pid).toBeNull();
  });

  it("tells its owner when the child goes away after it was ready", async () => {
    const fake = new InMemoryAppServer({ afterInitialize: [{ exit: { code: 7 } }] });
    const gone: unknown[] = [];
    const session = open(fake.launcher, { onGone: (g) => gone.push(g) });
    await session.ready;
    await expect
      .poll(() => gone)
      .toEqual([expect.objectContaining({ exit: { type: "exited", code: 7, signal: null } })]);
    await session.end();
  });
});
