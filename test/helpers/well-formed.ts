import { expect } from "vitest";
import type { EventBody, HarnessEvent } from "../../src/harness/events.js";

/** Stamps every event of a stream must carry, checked where given. */
export interface ExpectedStamps {
  harness?: string;
  sessionId?: string;
  at?: string;
}

/**
 * The invariants every event stream keeps, whatever the harness and the outcome. A stamped stream (events with
 * `seq`) is numbered from 1 without gaps and ends with its one terminal frame; its stamps match `stamps`. In any
 * stream, stamped or a mapper's bodies: a tool starts and completes at most once, completes after it started,
 * shows nothing after its completion, and no text delta follows its item's `text.completed`. Unless the stream
 * ends in a failed or cancelled terminal, every started tool completed.
 */
export function expectWellFormed(events: readonly EventBody[], stamps: ExpectedStamps = {}): void {
  if (events.some((event) => "seq" in event)) expectOneStream(events as HarnessEvent[], stamps);
  expectItemsPaired(events);
}

function expectOneStream(events: readonly HarnessEvent[], stamps: ExpectedStamps): void {
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
  expect(events.at(-1)?.type).toBe("terminal");
  for (const e of events) {
    if (stamps.harness !== undefined) expect(e.harness).toBe(stamps.harness);
    if (stamps.sessionId !== undefined) expect(e.sessionId).toBe(stamps.sessionId);
    if (stamps.at !== undefined) expect(e.at).toBe(stamps.at);
    expect(e.turnId === null || typeof e.turnId === "string").toBe(true);
  }
}

function expectItemsPaired(events: readonly EventBody[]): void {
  const started = new Map<string, number>();
  const completed = new Map<string, number>();
  const textDone = new Set<string>();
  events.forEach((event, index) => {
    if (event.type === "tool.started") {
      expect(started.has(event.itemId), `tool ${event.itemId} started twice`).toBe(false);
      started.set(event.itemId, index);
    }
    if (event.type === "tool.completed") {
      expect(completed.has(event.itemId), `tool ${event.itemId} completed twice`).toBe(false);
      expect(started.get(event.itemId), `tool ${event.itemId} completed before it started`).toBeLessThan(
        index,
      );
      completed.set(event.itemId, index);
    }
    if (event.type === "tool.output" || event.type === "file.changed")
      expect(completed.has(event.itemId), `${event.type} of ${event.itemId} after its completion`).toBe(
        false,
      );
    if (event.type === "text.completed") textDone.add(event.itemId);
    if (event.type === "text.delta")
      expect(textDone.has(event.itemId), `text delta of ${event.itemId} after its completion`).toBe(false);
  });
  const last = events.at(-1);
  const endedEarly = last?.type === "terminal" && last.outcome !== "completed";
  if (!endedEarly) expect([...started.keys()].sort()).toEqual([...completed.keys()].sort());
}
