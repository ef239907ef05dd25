import { stat } from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withDefaultTimeouts } from "../../src/codex/turn/turn-timeouts.js";
import type { JsonRpcFailure, TurnFailure } from "../../src/harness/events.js";
import { FAKE_THREAD_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import { collect } from "../helpers/collect.js";
import { startFakeSession } from "../helpers/fake-session.js";

const DEFAULT_TIMEOUTS = withDefaultTimeouts(undefined);

const start = startFakeSession;

const small = { initializeMs: 40, threadStartMs: 40, turnStartMs: 40 };

afterEach(() => {
  vi.useRealTimers();
});

describe("handshake watchdogs", () => {
  it.each([
    ["initialize", ["initialize"]],
    ["thread/start", ["initialize", "initialized", "thread/start"]],
    ["turn/start", ["initialize", "initialized", "thread/start", "turn/start"]],
  ])("a %s that never answers fails naming the step, and the child is terminated", async (method, sent) => {
    const { fake, session } = start({ replies: { [method]: { noReply: true } } }, { timeouts: small });
    const { events, terminal } = await collect(session);
    expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
    expect(terminal.outcome).toBe("failed");
    const failure = terminal.failure as JsonRpcFailure;
    expect(failure).toMatchObject({
      source: "jsonrpc",
      method,
      code: null,
      timeout: { step: method, timeoutMs: 40 },
    });
    expect(failure.message).toContain(method);
    expect(failure.message).toMatch(/stalled/);
    expect(fake.peer.received.map((f) => f.method).filter((m) => m !== "config/read")).toEqual(sent);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it.each([["exit"], ["ignore"]] as const)(
    "a stalled initialize ends codex's stdin first, so a codex that explains itself at EOF is heard (on EOF: %s)",
    async (onStdinEnd) => {
      const { fake, session } = start(
        {
          replies: { initialize: { noReply: true } },
          onStdinEnd,
          stderr: "Error: error loading config: invalid transport\nin `mcp_servers.broken`",
        },
        { timeouts: small },
      );
      const { terminal } = await collect(session);
      const failure = terminal.failure as JsonRpcFailure;
      expect(failure).toMatchObject({ source: "jsonrpc", method: "initialize", timeout: { timeoutMs: 40 } });
      expect(failure.message).toMatch(/^initialize stalled: .*; codex's stderr: Error: error loading config/);
      expect(fake.launches[0]?.terminated).toBe(true);
    },
  );

  it("each step has its own deadline: slow but in-time answers do not trip it", async () => {
    const { session } = start(
      {
        replies: {
          initialize: { result: { userAgent: "codex_cli_rs/0.171.0" }, delayMs: 20 },
          "thread/start": { result: { thread: { id: FAKE_THREAD_ID }, model: "m" }, delayMs: 20 },
        },
        turn: fakeSteps.textTurn("ok"),
      },
      { timeouts: { initializeMs: 300, threadStartMs: 300, turnStartMs: 300 } },
    );
    const { terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
  });

  it("defaults to deadlines of tens of seconds on the handshake and none on the whole turn", () => {
    for (const ms of [
      DEFAULT_TIMEOUTS.initializeMs,
      DEFAULT_TIMEOUTS.threadStartMs,
      DEFAULT_TIMEOUTS.turnStartMs,
    ]) {
      expect(ms).toBeGreaterThanOrEqual(10_000);
      expect(ms).toBeLessThanOrEqual(120_000);
    }
    expect(DEFAULT_TIMEOUTS.turnMs).toBeNull();
  });
});

/** Yields to the real event loop (a file system call, which fake timers leave alone) until `sent()` holds. */
async function sentOnRealLoop(sent: () => boolean): Promise<void> {
  for (let turn = 0; !sent(); turn++) {
    if (turn > 2_000) throw new Error("the request was never sent");
    await stat(".");
  }
}

describe("default deadlines (fake clock)", () => {
  it.each(["initialize", "thread/start", "turn/start"])(
    "a %s that never answers fails at the 30 s default, and no timer is left behind",
    async (method) => {
      // setImmediate too: the teardown starts one event-loop turn after the terminal frame
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate"] });
      const { fake, session } = start({ replies: { [method]: { noReply: true } } });
      let settled = false;
      void session.result.then(() => {
        settled = true;
      });
      // the deadline runs from the request: the steps before it (the trust lookup reads the file system) run
      // on the real event loop, which the fake clock does not move
      await sentOnRealLoop(() => (fake.launches[0]?.peer.requestsOf(method).length ?? 0) > 0);
      await vi.advanceTimersByTimeAsync(29_000);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1_100);
      const terminal = await session.result;
      expect(terminal.failure).toMatchObject({
        source: "jsonrpc",
        method,
        timeout: { step: method, timeoutMs: 30_000 },
      });
      expect(fake.launches[0]?.terminated).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    },
  );
});

describe("overall turn deadline", () => {
  it("a turn that never completes fails at turnMs with a turn failure naming the deadline", async () => {
    const { fake, session } = start(
      {
        turn: [
          fakeSteps.turnStarted(),
          fakeSteps.notify("item/agentMessage/delta", {
            itemId: "m",
            delta: "…",
            threadId: FAKE_THREAD_ID,
            turnId: "turn_fake_0001",
          }),
        ],
      },
      { timeouts: { turnMs: 60 } },
    );
    const { events, terminal } = await collect(session);
    expect(events.at(-1)?.type).toBe("terminal");
    expect(terminal.outcome).toBe("failed");
    const failure = terminal.failure as TurnFailure;
    expect(failure).toMatchObject({ source: "turn", timeout: { step: "turn", timeoutMs: 60 } });
    expect(failure.message).toMatch(/did not complete within 60 ms/);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("a turn that hangs completely (codex stops reading) still ends at turnMs", async () => {
    const { fake, session } = start(
      { turn: [fakeSteps.turnStarted(), { hang: true }] },
      { timeouts: { turnMs: 50 } },
    );
    const { terminal } = await collect(session);
    expect(terminal.failure).toMatchObject({ source: "turn", timeout: { step: "turn" } });
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("a turn that completes in time is not affected by turnMs", async () => {
    const { session } = start({ turn: fakeSteps.textTurn("quick") }, { timeouts: { turnMs: 5_000 } });
    const { terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
  });
});
