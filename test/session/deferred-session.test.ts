/**
 * DeferredSession: a session whose runner is built asynchronously behind the lazy door. Its id exists at once
 * and is the runner's; what the caller does before the runner exists (cancel, steer, stop reading) reaches it;
 * a runner that cannot be loaded ends the session with one failed terminal frame.
 */
import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { EventChannel, bufferedReader } from "../../src/harness/event-channel.js";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import { DeferredSession, type StartedSession } from "../../src/session/deferred-session.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { runnerOn } from "../helpers/fake-session.js";

/** A runner made of an event channel that records what the session asks of it. */
function recordingRunner(id: string) {
  const calls: string[] = [];
  const channel = new EventChannel<HarnessEvent>(() => calls.push("consumer stopped"));
  let cancelReason: unknown;
  const runner: StartedSession = {
    id,
    events: channel,
    result: new Promise<TerminalEvent>(() => {}),
    get cancelReason() {
      return cancelReason;
    },
    cancel: (reason) => {
      cancelReason = reason;
      calls.push(`cancel ${String(reason)}`);
    },
    steer: async (input) => {
      calls.push(`steer ${JSON.stringify(input)}`);
    },
  };
  return { runner, calls, channel };
}

/** A build that resolves only when `release()` is called: the runner's modules still loading. */
function slowBuild() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let built: ReturnType<typeof recordingRunner> | undefined;
  const build = async (id: string) => {
    await gate;
    built = recordingRunner(id);
    return built.runner;
  };
  return { build, release, built: () => built };
}

describe("DeferredSession", () => {
  it("has its id at once; the runner is built with it and every event carries it", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("hello") });
    let builtWith: string | undefined;
    const session = new DeferredSession("codex", "codex", async (sessionId) => {
      builtWith = sessionId;
      return runnerOn(fake.launcher, { sessionId });
    });
    expect(session.id).toMatch(/^[0-9a-f-]{36}$/);
    const events: HarnessEvent[] = [];
    for await (const event of session.events) events.push(event);
    expect(builtWith).toBe(session.id);
    expect(new Set(events.map((event) => event.sessionId))).toEqual(new Set([session.id]));
    expect((await session.result).outcome).toBe("completed");
    expect(events.at(-1)).toBe(await session.result);
  });

  it("a cancel before the runner exists reaches it once built: the turn ends before anything is launched", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("hello") });
    const session = new DeferredSession("codex", "codex", async (sessionId) =>
      runnerOn(fake.launcher, { sessionId }),
    );
    session.cancel("changed my mind");
    session.cancel("a second reason is ignored");
    expect(session.cancelReason).toBe("changed my mind");
    const terminal = await session.result;
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation?.via).toBe("before-turn");
    expect(session.cancelReason).toBe("changed my mind");
    expect(fake.launches).toHaveLength(0);
  });

  it("a steer before the runner exists waits for it; a cancel after it exists goes straight to it", async () => {
    const slow = slowBuild();
    const session = new DeferredSession("claude-code", "claude", slow.build);
    const steered = session.steer("look at the tests");
    slow.release();
    await steered;
    session.cancel("stop");
    expect(slow.built()?.calls).toEqual(['steer "look at the tests"', "cancel stop"]);
    expect(session.cancelReason).toBe("stop");
  });

  it("a consumer that stops before the first event stops the runner's stream once it exists", async () => {
    const slow = slowBuild();
    const session = new DeferredSession("codex", "codex", slow.build);
    const iterator = session.events[Symbol.asyncIterator]();
    const returned = iterator.return?.();
    slow.release();
    await returned;
    expect(slow.built()?.calls).toEqual(["consumer stopped"]);
  });

  it("hands over what the runner has queued (`readBuffered`), in order, after the first event", async () => {
    const slow = slowBuild();
    const session = new DeferredSession("codex", "codex", slow.build);
    const read = bufferedReader(session.events);
    expect(read?.()).toEqual([]);
    const iterator = session.events[Symbol.asyncIterator]();
    const first = iterator.next();
    slow.release();
    await new Promise((resolve) => setImmediate(resolve));
    const note = (seq: number) => ({ seq, type: "warning" }) as unknown as HarnessEvent;
    for (const seq of [1, 2, 3]) slow.built()?.channel.push(note(seq));
    expect((await first).value).toEqual(note(1));
    expect(read?.()).toEqual([note(2), note(3)]);
  });

  it("a runner that cannot be loaded ends the session with one failed `spawn` frame that names the cause", async () => {
    const session = new DeferredSession("claude-code", "/opt/claude", async () => {
      throw new Error("Cannot find module 'claude-turn-runner.js'");
    });
    const events: HarnessEvent[] = [];
    for await (const event of session.events) events.push(event);
    expect(events).toHaveLength(1);
    const terminal = await session.result;
    expect(events[0]).toBe(terminal);
    expect(terminal).toMatchObject({
      seq: 1,
      harness: "claude-code",
      sessionId: session.id,
      type: "terminal",
      outcome: "failed",
      failure: { source: "spawn", code: "RUNNER_UNAVAILABLE", command: "/opt/claude" },
    });
    expect(terminal.failure?.message).toContain("Cannot find module 'claude-turn-runner.js'");
    await expect(session.steer("too late")).rejects.toMatchObject({
      name: "SteerError",
      code: "TURN_NOT_RUNNING",
    });
  });

  it("is what a client returns: run() rejects with the caller's reason for a cancel before the runner exists", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("hello") });
    const client = createCodex({ launcher: fake.launcher, env: {} });
    const controller = new AbortController();
    const running = client.run({ prompt: "hi", signal: controller.signal });
    controller.abort("the app is closing");
    await expect(running).rejects.toBe("the app is closing");
    expect(fake.launches).toHaveLength(0);
  });
});
