/**
 * SessionCore on its own, with a runner made of callbacks: the one terminal frame (what runs before it, the open
 * tools closed with the right reason, nothing after it, the teardown after the consumer got it), the caller's
 * signal, the consumer that stops, the overall deadline and the lifetime that ends once.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import type { EventBody, HarnessEvent } from "../../src/harness/events.js";
import { ENDED, SessionCore } from "../../src/session/session-core.js";
import { TerminalBodies } from "../../src/session/terminal-body.js";

const NOTE: EventBody = { type: "warning", message: "note", method: "warning", native: null };

/** A core over a runner that records what the core asks of it. */
function coreOf(closing: EventBody[] = []) {
  const log: string[] = [];
  const cancels: unknown[] = [];
  const toolReasons: unknown[] = [];
  const observed: EventBody[] = [];
  const outcome = new TerminalBodies(
    () => ({ finalMessage: "so far", usage: null, model: "m", threadId: "t" }),
    () => null,
  );
  let turnId: string | null = null;
  const core: SessionCore = new SessionCore({
    harness: "codex",
    sessionId: "s-1",
    now: () => new Date(0),
    cancel: (reason) => {
      cancels.push(reason);
      outcome.cancelReason = reason;
      core.cancelled("before-turn");
    },
    turnId: () => turnId,
    observe: (body) => observed.push(body),
    outcome,
    ending: () => log.push(`ending (signal aborted: ${core.signal.aborted})`),
    closeTools: (reason) => {
      toolReasons.push(reason);
      return closing;
    },
    teardown: async () => {
      log.push("teardown");
    },
  });
  return { core, log, cancels, toolReasons, observed, outcome, setTurn: (id: string) => (turnId = id) };
}

async function drain(events: AsyncIterable<HarnessEvent>): Promise<HarnessEvent[]> {
  const seen: HarnessEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("SessionCore", () => {
  it("stamps each event with the runner's turn id, lets the runner observe it, and ends with one terminal", async () => {
    const { core, observed, setTurn, log } = coreOf([NOTE]);
    core.emit(NOTE);
    setTurn("turn-1");
    core.emit(NOTE);
    core.fail({ source: "parse", message: "bad", line: "x" });
    core.fail({ source: "parse", message: "again", line: "y" });
    core.cancelled("killed");
    const events = await drain(core.channel);
    expect(events.map((e) => [e.seq, e.type, e.turnId, e.sessionId, e.harness, e.at])).toEqual([
      [1, "warning", null, "s-1", "codex", "1970-01-01T00:00:00.000Z"],
      [2, "warning", "turn-1", "s-1", "codex", "1970-01-01T00:00:00.000Z"],
      [3, "warning", "turn-1", "s-1", "codex", "1970-01-01T00:00:00.000Z"],
      [4, "terminal", "turn-1", "s-1", "codex", "1970-01-01T00:00:00.000Z"],
    ]);
    const terminal = await core.result;
    expect(terminal).toBe(events[3]);
    expect(terminal.outcome).toBe("failed");
    if (terminal.outcome === "failed") expect(terminal.failure.message).toBe("bad");
    expect(terminal.finalMessage).toBe("so far");
    // the closed tool and the terminal were observed too; nothing of the later ends was
    expect(observed).toHaveLength(4);
    expect(log).toEqual(["ending (signal aborted: false)", "teardown"]);
    expect(core.signal.aborted).toBe(true);
    expect(core.signal.reason).toMatchObject({ code: "SESSION_ENDED" });
    // after the terminal frame an event is neither stamped nor streamed
    expect(core.emit(NOTE)).toBeNull();
  });

  it("closes the open tools with the cancel reason of a cancelled session, else with SESSION_ENDED", async () => {
    const cancelled = coreOf();
    cancelled.outcome.cancelReason = "stop";
    cancelled.core.cancelled("killed");
    const failed = coreOf();
    failed.core.fail({ source: "parse", message: "bad", line: "x" });
    await Promise.all([cancelled.core.result, failed.core.result]);
    expect(cancelled.toolReasons).toEqual(["stop"]);
    expect(failed.toolReasons).toHaveLength(1);
    expect(failed.toolReasons[0]).toMatchObject({ code: "SESSION_ENDED" });
  });

  it("closes the stream only after the teardown, one macrotask after the terminal frame", async () => {
    const { core, log } = coreOf();
    core.fail({ source: "parse", message: "bad", line: "x" });
    expect(log).toEqual(["ending (signal aborted: false)"]);
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(log).not.toContain("teardown");
    await core.result;
    expect(log).toContain("teardown");
  });

  it("cancels at once for a signal aborted already, and on a later abort while the session lives", async () => {
    const early = coreOf();
    expect(early.core.follow(AbortSignal.abort("early"))).toBe(false);
    expect(early.cancels).toEqual(["early"]);
    const terminal = await early.core.result;
    expect(terminal.outcome === "cancelled" && terminal.cancellation).toEqual({
      via: "before-turn",
      reason: "early",
    });

    const controller = new AbortController();
    const later = coreOf();
    expect(later.core.follow(controller.signal)).toBe(true);
    expect(later.cancels).toEqual([]);
    controller.abort("later");
    expect(later.cancels).toEqual(["later"]);
    await later.core.result;
  });

  it("stops following the caller's signal once the session has ended", async () => {
    const controller = new AbortController();
    const { core, cancels } = coreOf();
    core.follow(controller.signal);
    core.fail({ source: "parse", message: "bad", line: "x" });
    await core.result;
    controller.abort("too late");
    expect(cancels).toEqual([]);
  });

  it("cancels when the consumer stops reading", async () => {
    const { core, cancels } = coreOf();
    core.emit(NOTE);
    core.emit(NOTE);
    for await (const event of core.channel) {
      expect(event.seq).toBe(1);
      break;
    }
    expect(cancels).toHaveLength(1);
    expect(cancels[0]).toMatchObject({ code: "CONSUMER_STOPPED" });
    await core.result;
  });

  it("fails at the overall deadline, and arms none for null", async () => {
    const { core } = coreOf();
    core.armDeadline(null);
    core.armDeadline(20);
    const terminal = await core.result;
    expect(terminal.outcome === "failed" && terminal.failure).toMatchObject({
      source: "turn",
      timeout: { step: "turn", timeoutMs: 20 },
    });
  });

  it("resolves `until` with the step, and rejects it with ENDED once the session has ended", async () => {
    const { core } = coreOf();
    await expect(core.until(Promise.resolve(7))).resolves.toBe(7);
    const pending = core.until(new Promise<never>(() => {}));
    core.fail({ source: "parse", message: "bad", line: "x" });
    await expect(pending).rejects.toBe(ENDED);
    await expect(core.until(Promise.resolve(8))).rejects.toBe(ENDED);
  });

  it("holds no step once it settled: a long session awaiting many steps keeps none of their values", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const { core } = coreOf();
    const values: WeakRef<object>[] = [];
    const step = (i: number): Promise<object> => {
      const value = { i };
      values.push(new WeakRef(value));
      return Promise.resolve(value);
    };
    for (let i = 0; i < 100; i++) await core.until(step(i));
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(values.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    core.fail({ source: "parse", message: "bad", line: "x" });
    await drain(core.channel);
  });

  it("settles `race` as its step does unless the session ends first, then rejects with ENDED", async () => {
    const { core } = coreOf();
    await expect(core.race(Promise.resolve(1))).resolves.toBe(1);
    await expect(core.race(Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    const waiting = Array.from({ length: 1000 }, () => core.race(new Promise(() => undefined)));
    const settled = Promise.resolve(2);
    const answered = core.race(settled);
    await settled;
    core.fail({ source: "parse", message: "bad", line: "x" });
    // a step settled before the end keeps its value; the ones still waiting reject
    await expect(answered).resolves.toBe(2);
    for (const step of waiting) await expect(step).rejects.toBe(ENDED);
    await expect(core.race(new Promise(() => undefined))).rejects.toBe(ENDED);
    await drain(core.channel);
  });
});
