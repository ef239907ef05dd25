import { describe, expect, it } from "vitest";
import type { EventBody, HarnessEvent } from "../../src/harness/events.js";
import { EventStamper } from "../../src/session/event-stamper.js";

const STAMP_KEYS = ["seq", "harness", "sessionId", "turnId", "at"];

const BODIES: EventBody[] = [
  { type: "text.delta", itemId: "msg_1", text: "Hel" },
  { type: "reasoning.delta", itemId: "rs_1", text: "think", kind: "summary" },
  { type: "reasoning.delta", itemId: "rs_1", text: "deep", kind: "content" },
  { type: "tool.output", itemId: "cmd_1", tool: "command", text: "ls\n" },
  { type: "text.completed", itemId: "msg_1", text: "Hello" },
  { type: "warning", method: "warning", message: "careful", native: { message: "careful" } },
  { type: "native", method: "thread/name/updated", params: { name: "x" } },
];

/** A stamper for session "5a0f" at a fixed time, and the events it pushed. */
function collecting(): { stamper: EventStamper; events: HarnessEvent[] } {
  const events: HarnessEvent[] = [];
  const stamper = new EventStamper(
    "codex",
    "5a0f",
    () => "2026-12-05T10:00:00.000Z",
    (event) => {
      events.push(event);
    },
  );
  return { stamper, events };
}

function stampAll(bodies: EventBody[]): HarnessEvent[] {
  const { stamper, events } = collecting();
  bodies.forEach((body, index) => stamper.emit(body, index === 0 ? null : "turn_1"));
  return events;
}

describe("EventStamper", () => {
  it("puts the stamp first and then every field of the body, in the body's order, for every kind of event", () => {
    const events = stampAll(BODIES);
    expect(events).toHaveLength(BODIES.length);
    events.forEach((event, index) => {
      const body = BODIES[index] as EventBody;
      expect(Object.keys(event)).toEqual([...STAMP_KEYS, ...Object.keys(body)]);
      expect(event).toEqual({
        seq: index + 1,
        harness: "codex",
        sessionId: "5a0f",
        turnId: index === 0 ? null : "turn_1",
        at: "2026-12-05T10:00:00.000Z",
        ...body,
      });
    });
  });

  it("stamps nothing after the terminal event", () => {
    const { stamper, events } = collecting();
    const terminal = { type: "terminal", outcome: "cancelled" } as unknown as EventBody;
    expect(stamper.emit(terminal, null)?.seq).toBe(1);
    expect(stamper.emit({ type: "text.delta", itemId: "m", text: "late" }, null)).toBeNull();
    expect(events).toHaveLength(1);
  });
});
