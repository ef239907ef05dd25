/**
 * A slow consumer of a session's events during a delta flood: the runner stops reading codex's stdout while the
 * consumer's unread queue is over the high-water mark, so the queue stays bounded (asserted on its observed
 * peak, not on timing), and every guarantee holds while reading is paused: order, `seq`, one terminal, and a
 * cancel, a consumer that stops, a deadline or codex exiting all still end the session.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { CodexTurnRunner } from "../../src/codex/turn/turn-runner.js";
import {
  EVENT_QUEUE_HIGH_WATER,
  EVENT_QUEUE_LOW_WATER,
  EventChannel,
} from "../../src/harness/event-channel.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { fakeSteps, type FakeStep } from "../../src/testkit/fake-script.js";
import { expectWellFormed } from "../helpers/well-formed.js";
import { startFakeSession } from "../helpers/fake-session.js";

/** Twenty times the high-water mark: unthrottled, the queue would hold all of it. */
const DELTAS = 20 * EVENT_QUEUE_HIGH_WATER;
/** Events one frame can add after the one that reached the mark (the rest of its chunk is held). */
const FRAME_SLACK = 4;

/** The turn: a flood of deltas, then `after` (default: the turn completes). */
function flood(after: FakeStep[] = [fakeSteps.turnCompleted("completed")]): FakeStep[] {
  const chunks = Array.from({ length: DELTAS }, (_, i) => `d${i} `);
  return [fakeSteps.turnStarted(), ...fakeSteps.agentMessage("msg_1", chunks), ...after];
}

/** A flood in a turn that runs on until interrupted (so a cancel is not overtaken by the turn's own end). */
const UNENDING = [{ delayMs: 600_000 }];

function channelOf(session: CodexTurnRunner): EventChannel<HarnessEvent> {
  const events = session.events;
  if (!(events instanceof EventChannel)) throw new Error("the session's events are not an EventChannel");
  return events as EventChannel<HarnessEvent>;
}

/**
 * A consumer that has begun reading and reads nothing yet (backpressure holds for a reading consumer only): its
 * events, iterable once.
 */
function opened(channel: EventChannel<HarnessEvent>): AsyncIterable<HarnessEvent> {
  const iterator = channel[Symbol.asyncIterator]();
  return { [Symbol.asyncIterator]: () => iterator };
}

/**
 * Opens the consumer ({@link opened}) and waits (turns of the event loop, not time) until its queue has reached
 * the high-water mark; its events.
 */
async function untilFull(channel: EventChannel<HarnessEvent>): Promise<AsyncIterable<HarnessEvent>> {
  const events = opened(channel);
  for (let turns = 0; channel.length < EVENT_QUEUE_HIGH_WATER; turns++) {
    if (turns > 10_000) throw new Error(`the queue never filled (length ${channel.length})`);
    await nextTurn();
  }
  return events;
}

describe("a slow consumer during a delta flood", () => {
  it("keeps the unread queue at the high-water mark and still gets every delta in order", async () => {
    const { session } = startFakeSession({ turn: flood() });
    const channel = channelOf(session);
    const events: HarnessEvent[] = [];
    for await (const event of session.events) {
      events.push(event);
      await nextTurn(); // one event per turn of the event loop: far slower than the fake writes
    }
    expect(channel.peakLength).toBeGreaterThanOrEqual(EVENT_QUEUE_HIGH_WATER);
    expect(channel.peakLength).toBeLessThanOrEqual(EVENT_QUEUE_HIGH_WATER + FRAME_SLACK);
    expectWellFormed(events);
    const deltas = events.filter((e) => e.type === "text.delta");
    expect(deltas).toHaveLength(DELTAS);
    expect(deltas.map((e) => (e.type === "text.delta" ? e.text : "")).join("")).toBe(
      Array.from({ length: DELTAS }, (_, i) => `d${i} `).join(""),
    );
    expect((await session.result).outcome).toBe("completed");
  });

  it("is cancelled by its AbortSignal while reading is paused: one cancelled terminal, via interrupted", async () => {
    const controller = new AbortController();
    const reason = new Error("stop the flood");
    const { fake, session } = startFakeSession(
      { turn: flood(UNENDING) },
      { signal: controller.signal, interruptGraceMs: 120_000 },
    );
    const channel = channelOf(session);
    const stream = await untilFull(channel);
    const events: HarnessEvent[] = [];
    let peakAtAbort = 0;
    for await (const event of stream) {
      events.push(event);
      if (events.length === 10) {
        expect(channel.length).toBeGreaterThan(EVENT_QUEUE_LOW_WATER); // still paused
        peakAtAbort = channel.peakLength;
        controller.abort(reason);
      }
      await nextTurn();
    }
    expect(peakAtAbort).toBeLessThanOrEqual(EVENT_QUEUE_HIGH_WATER + FRAME_SLACK);
    expectWellFormed(events);
    const terminal = await session.result;
    expect(terminal).toMatchObject({ outcome: "cancelled", cancellation: { via: "interrupted" } });
    expect(events.at(-1)).toEqual(terminal);
    expect(session.cancelReason).toBe(reason);
    expect(fake.peer.requestsOf("turn/interrupt")).toHaveLength(1);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("ends with a cancelled terminal when the consumer stops while reading is paused", async () => {
    const { fake, session } = startFakeSession({ turn: flood(UNENDING) }, { interruptGraceMs: 120_000 });
    const channel = channelOf(session);
    const stream = await untilFull(channel);
    for await (const event of stream) {
      expect(event.type).toBe("session.started");
      break;
    }
    const terminal = await session.result;
    expect(terminal).toMatchObject({ outcome: "cancelled", cancellation: { via: "interrupted" } });
    expect(channel.peakLength).toBeLessThanOrEqual(EVENT_QUEUE_HIGH_WATER + FRAME_SLACK);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("still fails at the overall deadline when the consumer reads nothing", async () => {
    const { fake, session } = startFakeSession({ turn: flood() }, { timeouts: { turnMs: 200 } });
    const channel = channelOf(session);
    const stream = opened(channel);
    const terminal = await session.result; // settles while the consumer reads nothing: the tree is gone
    expect(terminal).toMatchObject({ outcome: "failed", failure: { timeout: { step: "turn" } } });
    expect(channel.peakLength).toBeLessThanOrEqual(EVENT_QUEUE_HIGH_WATER + FRAME_SLACK);
    const events: HarnessEvent[] = [];
    for await (const event of stream) events.push(event);
    expectWellFormed(events);
    expect(events.at(-1)).toEqual(terminal);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("reads what codex wrote before it exited: a completed turn is not reported as a crash", async () => {
    const { session } = startFakeSession({
      turn: flood([fakeSteps.turnCompleted("completed"), { exit: { code: 0 } }]),
    });
    const channel = channelOf(session);
    const stream = await untilFull(channel);
    await new Promise((resolve) => setTimeout(resolve, 700)); // past the 500 ms stdout-after-exit wait
    const events: HarnessEvent[] = [];
    for await (const event of stream) events.push(event);
    expectWellFormed(events);
    expect(events.filter((e) => e.type === "text.delta")).toHaveLength(DELTAS);
    expect((await session.result).outcome).toBe("completed");
  });
});
