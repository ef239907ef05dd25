import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import type { CodexTurnRunner } from "../../src/codex/turn/turn-runner.js";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import { FAKE_THREAD_ID, FAKE_TURN_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { collect } from "../helpers/collect.js";
import { startFakeSession, runnerOn } from "../helpers/fake-session.js";
import { intercepting } from "../helpers/turn-started-hook.js";
import { waitFor } from "../helpers/wait.js";

/** Long enough that a test waiting for it would hit the test timeout: a cancelled turn must not wait for it. */
const LONG_GRACE_MS = 120_000;
const QUICK = 5_000;

const start = startFakeSession;

/** Collects the stream, calling `onEvent` for each event as it arrives. */
async function drive(
  session: CodexTurnRunner,
  onEvent: (event: HarnessEvent) => void | Promise<void>,
): Promise<{ events: HarnessEvent[]; terminal: TerminalEvent }> {
  const events: HarnessEvent[] = [];
  for await (const event of session.events) {
    events.push(event);
    await onEvent(event);
  }
  return { events, terminal: await session.result };
}

function expectOneTerminalLast(events: HarnessEvent[]): void {
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
  expect(events.at(-1)?.type).toBe("terminal");
}

const isTurnCompleted = (frame: Record<string, unknown>): boolean => frame.method === "turn/completed";

describe("abort after turn/started", () => {
  it(
    "sends exactly one turn/interrupt {threadId, turnId} and ends cancelled via interrupted without waiting for the grace",
    async () => {
      const controller = new AbortController();
      const { fake, session } = start(
        { turn: [fakeSteps.turnStarted()] },
        { signal: controller.signal, interruptGraceMs: LONG_GRACE_MS },
      );
      const { events, terminal } = await drive(session, (event) => {
        if (event.type === "turn.started") {
          controller.abort(new Error("user pressed stop"));
          controller.abort(new Error("again"));
          session.cancel("and again");
        }
      });
      expectOneTerminalLast(events);
      expect(fake.peer.requestsOf("turn/interrupt").map((f) => f.params)).toEqual([
        { threadId: FAKE_THREAD_ID, turnId: FAKE_TURN_ID },
      ]);
      expect(terminal.outcome).toBe("cancelled");
      expect(terminal.failure).toBeNull();
      expect(terminal.cancellation).toEqual({ via: "interrupted", reason: "user pressed stop" });
      expect(terminal.turnId).toBe(FAKE_TURN_ID);
      expect(session.cancelReason).toBeInstanceOf(Error);
      expect(fake.launches[0]?.terminated).toBe(true);
    },
    QUICK,
  );

  it(
    "is answered while codex is still busy streaming the turn (the fake, like codex, serves requests concurrently)",
    async () => {
      const controller = new AbortController();
      const { fake, session } = start(
        {
          turn: [
            fakeSteps.turnStarted(),
            fakeSteps.notify("item/agentMessage/delta", {
              itemId: "m",
              delta: "work",
              threadId: FAKE_THREAD_ID,
              turnId: FAKE_TURN_ID,
            }),
            { delayMs: 20_000 },
            fakeSteps.turnCompleted("completed"),
          ],
        },
        { signal: controller.signal, interruptGraceMs: LONG_GRACE_MS },
      );
      const { terminal } = await drive(session, (event) => {
        if (event.type === "text.delta") controller.abort();
      });
      expect(terminal.outcome).toBe("cancelled");
      expect(terminal.cancellation?.via).toBe("interrupted");
      expect(fake.launches[0]?.terminated).toBe(true);
    },
    QUICK,
  );

  it("keeps what was streamed before the cancel on the cancelled terminal", async () => {
    const controller = new AbortController();
    const { session } = start(
      {
        turn: [
          fakeSteps.turnStarted(),
          ...fakeSteps.agentMessage("m", ["so far"], "commentary"),
          fakeSteps.tokenUsage({ totalTokens: 9 }),
        ],
      },
      { signal: controller.signal, interruptGraceMs: LONG_GRACE_MS },
    );
    const { terminal } = await drive(session, (event) => {
      if (event.type === "usage") controller.abort();
    });
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.finalMessage).toBe("so far");
    expect(terminal.usage?.totalTokens).toBe(9);
  });

  it("kills after the grace when codex ignores the interrupt (via killed)", async () => {
    const controller = new AbortController();
    const { fake, session } = start(
      { turn: [fakeSteps.turnStarted()], onInterrupt: [] },
      { signal: controller.signal, interruptGraceMs: 30 },
    );
    const { events, terminal } = await drive(session, (event) => {
      if (event.type === "turn.started") controller.abort("stop");
    });
    expectOneTerminalLast(events);
    expect(fake.peer.requestsOf("turn/interrupt")).toHaveLength(1);
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation).toEqual({ via: "killed", reason: "stop" });
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("kills after the grace when codex does not even answer turn/interrupt", async () => {
    const controller = new AbortController();
    const { session, fake } = start(
      { turn: [fakeSteps.turnStarted()], replies: { "turn/interrupt": { noReply: true } } },
      { signal: controller.signal, interruptGraceMs: 30 },
    );
    const { terminal } = await drive(session, (event) => {
      if (event.type === "turn.started") controller.abort();
    });
    expect(terminal.cancellation?.via).toBe("killed");
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("kills after the grace when codex answers turn/interrupt with an error", async () => {
    const controller = new AbortController();
    const { session } = start(
      {
        turn: [fakeSteps.turnStarted()],
        replies: { "turn/interrupt": { error: { code: -32600, message: "no active turn" } } },
      },
      { signal: controller.signal, interruptGraceMs: 30 },
    );
    const { terminal } = await drive(session, (event) => {
      if (event.type === "turn.started") controller.abort();
    });
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation?.via).toBe("killed");
  });

  it("an interrupted turn/completed of another turn does not end the cancelled turn", async () => {
    const controller = new AbortController();
    const { session } = start(
      {
        turn: [fakeSteps.turnStarted()],
        onInterrupt: [fakeSteps.turnCompleted("interrupted", { turnId: "turn_other" })],
      },
      { signal: controller.signal, interruptGraceMs: 40 },
    );
    const { events, terminal } = await drive(session, (event) => {
      if (event.type === "turn.started") controller.abort();
    });
    expect(events.some((e) => e.type === "passthrough" && e.reason === "foreign")).toBe(true);
    expect(terminal.cancellation?.via).toBe("killed");
  });

  it("a child that exits during the interrupt grace still ends cancelled", async () => {
    const controller = new AbortController();
    const { session } = start(
      { turn: [fakeSteps.turnStarted()], onInterrupt: [{ exit: { code: 0 } }] },
      { signal: controller.signal, interruptGraceMs: LONG_GRACE_MS },
    );
    const { terminal } = await drive(session, (event) => {
      if (event.type === "turn.started") controller.abort();
    });
    expect(terminal.outcome).toBe("cancelled");
  });
});

describe("abort before the turn id exists", () => {
  it(
    "during initialize: no interrupt, killed at once, cancelled via before-turn",
    async () => {
      const controller = new AbortController();
      const { fake, session } = start(
        { replies: { initialize: { result: { userAgent: "codex_cli_rs/0.171.0" }, delayMs: 60_000 } } },
        { signal: controller.signal, interruptGraceMs: LONG_GRACE_MS },
      );
      setTimeout(() => controller.abort(new Error("changed my mind")), 10);
      const { events, terminal } = await collect(session);
      expect(events.map((e) => e.type)).toEqual(["terminal"]);
      expect(terminal.outcome).toBe("cancelled");
      expect(terminal.cancellation).toEqual({ via: "before-turn", reason: "changed my mind" });
      expect(terminal.turnId).toBeNull();
      expect(fake.peer.requestsOf("turn/interrupt")).toEqual([]);
      expect(fake.peer.requestsOf("thread/start")).toEqual([]);
      expect(fake.launches[0]?.terminated).toBe(true);
    },
    QUICK,
  );

  it.each(["thread/start", "turn/start"] as const)(
    "while the %s answer is pending: no interrupt, cancelled via before-turn",
    async (method) => {
      const controller = new AbortController();
      const { fake, session } = start(
        { replies: { [method]: { noReply: true } } },
        { signal: controller.signal },
      );
      const done = collect(session);
      await waitFor(() => fake.launches[0]?.peer.requestsOf(method).length === 1);
      controller.abort();
      const { terminal } = await done;
      expect(terminal.cancellation?.via).toBe("before-turn");
      if (method === "thread/start") expect(fake.peer.requestsOf("turn/start")).toEqual([]);
      expect(fake.peer.requestsOf("turn/interrupt")).toEqual([]);
      expect(fake.launches[0]?.terminated).toBe(true);
    },
    QUICK,
  );

  it("right after the constructor returned (the launch is still being prepared): cancelled, nothing launched", async () => {
    const controller = new AbortController();
    const { fake, session } = start({ turn: fakeSteps.textTurn("never") }, { signal: controller.signal });
    controller.abort();
    const { events, terminal } = await collect(session);
    expect(events.map((e) => e.type)).toEqual(["terminal"]);
    expect(terminal.cancellation?.via).toBe("before-turn");
    expect(fake.launches).toHaveLength(0);
  });

  it("during prepare: prepare sees the abort and nothing is launched", async () => {
    const controller = new AbortController();
    let prepareSignal: AbortSignal | undefined;
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("never") });
    const session = runnerOn(fake.launcher, {
      signal: controller.signal,
      prepare: (signal) => {
        prepareSignal = signal;
        return new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(signal.reason as Error)),
        );
      },
    });
    setTimeout(() => controller.abort("stop"), 5);
    const { terminal } = await collect(session);
    expect(prepareSignal?.aborted).toBe(true);
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation).toEqual({ via: "before-turn", reason: "stop" });
    expect(fake.launches).toHaveLength(0);
  });
});

describe("an already-aborted signal", () => {
  it("never launches and yields only a cancelled terminal", async () => {
    const reason = new Error("aborted before start");
    const { fake, session } = start(
      { turn: fakeSteps.textTurn("never") },
      { signal: AbortSignal.abort(reason) },
    );
    const { events, terminal } = await collect(session);
    expect(fake.launches).toHaveLength(0);
    expect(events).toEqual([terminal]);
    expect(terminal).toMatchObject({
      seq: 1,
      outcome: "cancelled",
      failure: null,
      cancellation: { via: "before-turn", reason: "aborted before start" },
    });
    expect(session.cancelReason).toBe(reason);
  });

  it("never calls prepare either", async () => {
    let prepared = false;
    const fake = new InMemoryAppServer({});
    const session = runnerOn(fake.launcher, {
      signal: AbortSignal.abort(),
      prepare: () => {
        prepared = true;
        return Promise.resolve({ codex: { type: "native", command: "codex" }, appServerArgs: [] });
      },
    });
    await session.result;
    expect(prepared).toBe(false);
    expect(fake.launches).toHaveLength(0);
  });
});

describe("cancel after completion", () => {
  it("sends no interrupt and changes nothing", async () => {
    const controller = new AbortController();
    const { fake, session } = start({ turn: fakeSteps.textTurn("done") }, { signal: controller.signal });
    const { events, terminal } = await collect(session);
    const snapshot = structuredClone(terminal);
    // any timer a late cancel scheduled (an interrupt grace, a kill) runs now instead of after a sleep
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      controller.abort("too late");
      session.cancel("also too late");
      await vi.runAllTimersAsync();
    } finally {
      vi.useRealTimers();
    }
    expect(await session.result).toBe(terminal);
    expect(terminal).toEqual(snapshot);
    expect(terminal.outcome).toBe("completed");
    expect(session.cancelReason).toBeUndefined();
    expect(fake.peer.requestsOf("turn/interrupt")).toEqual([]);
    expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
  });
});

describe("abort racing a normal completion", () => {
  it("completion first, abort in the same tick: completed wins, no interrupt is sent", async () => {
    const controller = new AbortController();
    const { fake, session } = start(
      { turn: fakeSteps.textTurn("finished") },
      { signal: controller.signal, interruptGraceMs: LONG_GRACE_MS },
      intercepting((frame, deliver) => {
        deliver();
        if (isTurnCompleted(frame)) controller.abort("late stop");
      }),
    );
    const { events, terminal } = await collect(session);
    expectOneTerminalLast(events);
    expect(terminal).toMatchObject({
      outcome: "completed",
      finalMessage: "finished",
      cancellation: null,
      failure: null,
    });
    expect(fake.peer.requestsOf("turn/interrupt")).toEqual([]);
  });

  it(
    "abort first, codex's completed turn/completed right behind it: the completion codex reported wins, honestly",
    async () => {
      const controller = new AbortController();
      const { fake, session } = start(
        { turn: fakeSteps.textTurn("finished") },
        { signal: controller.signal, interruptGraceMs: LONG_GRACE_MS },
        intercepting((frame, deliver) => {
          if (isTurnCompleted(frame)) controller.abort("stop");
          deliver();
        }),
      );
      const { events, terminal } = await collect(session);
      expectOneTerminalLast(events);
      // the interrupt went out once, but codex had already completed the turn: the frame says completed
      expect(fake.peer.requestsOf("turn/interrupt")).toHaveLength(1);
      expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "finished", cancellation: null });
    },
    QUICK,
  );

  it(
    "abort first, interrupted turn/completed next: cancelled via interrupted, and a late completed frame changes nothing",
    async () => {
      const controller = new AbortController();
      const { session } = start(
        {
          turn: [fakeSteps.turnStarted()],
          onInterrupt: [fakeSteps.turnCompleted("interrupted"), fakeSteps.turnCompleted("completed")],
        },
        { signal: controller.signal, interruptGraceMs: LONG_GRACE_MS },
      );
      const { events, terminal } = await drive(session, (event) => {
        if (event.type === "turn.started") controller.abort();
      });
      expectOneTerminalLast(events);
      expect(terminal.outcome).toBe("cancelled");
      expect(terminal.cancellation?.via).toBe("interrupted");
    },
    QUICK,
  );
});

describe("codex interrupting on its own", () => {
  it("an interrupted turn/completed nobody asked for ends cancelled with a reason that says so", async () => {
    const { session, fake } = start({
      turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("interrupted")],
    });
    const { terminal } = await collect(session);
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation).toEqual({
      via: "interrupted",
      reason: "the turn was interrupted by codex",
    });
    expect(fake.peer.requestsOf("turn/interrupt")).toEqual([]);
  });
});

describe("the consumer stops iterating", () => {
  it(
    "breaking out of for-await after turn/started interrupts, ends cancelled and terminates the child",
    async () => {
      const { fake, session } = start(
        { turn: [fakeSteps.turnStarted()] },
        { interruptGraceMs: LONG_GRACE_MS },
      );
      for await (const event of session.events) {
        if (event.type === "turn.started") break;
      }
      const terminal = await session.result;
      expect(terminal.outcome).toBe("cancelled");
      expect(terminal.cancellation).toEqual({ via: "interrupted", reason: "the event consumer stopped" });
      expect(fake.peer.requestsOf("turn/interrupt")).toHaveLength(1);
      expect(fake.launches[0]?.terminated).toBe(true);
    },
    QUICK,
  );

  it("breaking out at the first event (before the turn exists) cancels before-turn and terminates the child", async () => {
    // the acknowledgement never comes, so the turn id cannot exist when the consumer stops
    const { fake, session } = start({ replies: { "turn/start": { noReply: true } } });
    for await (const event of session.events) {
      expect(event.type).toBe("session.started");
      break;
    }
    const terminal = await session.result;
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation?.via).toBe("before-turn");
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("breaking out at the terminal event changes nothing", async () => {
    const { fake, session } = start({ turn: fakeSteps.textTurn("done") });
    for await (const event of session.events) {
      if (event.type === "terminal") break;
    }
    const terminal = await session.result;
    expect(terminal.outcome).toBe("completed");
    expect(fake.peer.requestsOf("turn/interrupt")).toEqual([]);
  });
});

describe("the caller's signal", () => {
  it("is left without an abort listener once the turn ended, whatever the outcome", async () => {
    const controller = new AbortController();
    const completed = start({ turn: fakeSteps.textTurn("ok") }, { signal: controller.signal });
    const failed = start(
      { replies: { initialize: { error: { code: -32600, message: "no" } } } },
      { signal: controller.signal },
    );
    expect(getEventListeners(controller.signal, "abort").length).toBeGreaterThan(0);
    await Promise.all([completed.session.result, failed.session.result]);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("cancellation reasons", () => {
  it.each([
    ["an Error", new Error("boom"), "boom"],
    ["a string", "plain words", "plain words"],
    ["an object", { code: 42 }, '{"code":42}'],
    ["nothing", undefined, "cancelled"],
  ])(
    "describes %s as a reason string and keeps the value itself on cancelReason",
    async (_label, reason, text) => {
      const { session } = start({ replies: { initialize: { noReply: true } } });
      session.cancel(reason);
      const terminal = await session.result;
      expect(terminal.cancellation?.reason).toBe(text);
      expect(session.cancelReason).toBe(reason);
    },
  );
});
