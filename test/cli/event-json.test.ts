import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import { EventJsonEncoder } from "../../src/cli/event-json.js";
import type {
  HarnessEvent,
  ReasoningDeltaEvent,
  TextDeltaEvent,
  ToolKind,
  ToolOutputEvent,
} from "../../src/harness/events.js";
import { EventStamper } from "../../src/codex/turn/event-stamper.js";
import { TurnEventMapper } from "../../src/codex/turn/event-mapper.js";

type Stamp = "seq" | "harness" | "sessionId" | "turnId" | "at";

/** Stamps what the real mapper makes of `frames` (method, params), as a session does. */
function mappedEvents(frames: [string, Record<string, unknown>][]): HarnessEvent[] {
  const events: HarnessEvent[] = [];
  const times = ["2026-12-04T10:00:00.000Z", "2026-12-04T10:00:00.001Z"];
  let tick = 0;
  const stamper = new EventStamper(
    "5a0f",
    () => times[Math.floor(tick++ / 3) % 2] ?? "",
    (event) => {
      events.push(event);
    },
  );
  const mapper = new TurnEventMapper();
  mapper.ownership.adoptThreadResult({ thread: { id: "thr" }, model: "gpt-test" }, null);
  mapper.ownership.adoptTurn("turn_1");
  for (const [method, params] of frames) {
    for (const body of mapper.mapNotification(method, params, { method, params }).events)
      stamper.emit(body, tick > 4 ? "turn_1" : null);
  }
  return events;
}

describe("EventJsonEncoder", () => {
  it("covers exactly the fields of each delta event (a new field must be added to the encoder)", () => {
    expectTypeOf<keyof TextDeltaEvent>().toEqualTypeOf<Stamp | "type" | "itemId" | "text">();
    expectTypeOf<keyof ReasoningDeltaEvent>().toEqualTypeOf<Stamp | "type" | "itemId" | "text" | "kind">();
    expectTypeOf<keyof ToolOutputEvent>().toEqualTypeOf<Stamp | "type" | "itemId" | "tool" | "text">();
  });

  it("writes what JSON.stringify writes for the delta events the mapper and stamper make", () => {
    const ids = { threadId: "thr", turnId: "turn_1" };
    const events = mappedEvents([
      ["item/agentMessage/delta", { ...ids, itemId: "msg_1", delta: "Hello, " }],
      ["item/agentMessage/delta", { ...ids, itemId: "msg_1", delta: 'wörld "quoted" \n\u2028' }],
      ["item/reasoning/summaryTextDelta", { ...ids, itemId: "rs_1", delta: "think" }],
      ["item/reasoning/textDelta", { ...ids, itemId: "rs_1", delta: "\ud800 lone" }],
      ["item/commandExecution/outputDelta", { ...ids, itemId: "cmd_1", delta: "ls\r\n" }],
      ["item/fileChange/outputDelta", { ...ids, itemId: "fc_1", delta: "\u0000\u001f" }],
      ["item/agentMessage/delta", { ...ids, itemId: "msg_2", delta: "" }],
      ["turn/plan/updated", { ...ids, plan: [{ step: "a", status: "completed" }] }],
      ["item/agentMessage/delta", { ...ids, itemId: "msg_2", delta: "again" }],
    ]);
    expect(events.map((event) => event.type)).toEqual([
      "text.delta",
      "text.delta",
      "reasoning.delta",
      "reasoning.delta",
      "tool.output",
      "tool.output",
      "text.delta",
      "plan.updated",
      "text.delta",
    ]);
    const encoder = new EventJsonEncoder();
    for (const event of events) expect(encoder.encode(event)).toBe(JSON.stringify(event));
  });

  it("writes what JSON.stringify writes for any sequence of delta and other events", () => {
    const text = fc.string({ unit: "binary", maxLength: 12 });
    const small = fc.constantFrom("a", "b", 'q"uote', "é");
    const stamp = fc.record({
      seq: fc.nat(),
      harness: fc.constant("codex" as const),
      sessionId: small,
      turnId: fc.option(small),
      at: fc.constantFrom("2026-12-04T10:00:00.000Z", "2026-12-04T10:00:00.001Z"),
    });
    const tool = fc.constantFrom<ToolKind>("command", "fileChange", "mcp");
    const event: fc.Arbitrary<HarnessEvent> = fc.oneof(
      fc
        .record({ stamp, itemId: small, text })
        .map(({ stamp, itemId, text }): TextDeltaEvent => ({ ...stamp, type: "text.delta", itemId, text })),
      fc
        .record({ stamp, itemId: small, text, kind: fc.constantFrom("summary" as const, "content" as const) })
        .map(({ stamp, itemId, text, kind }): ReasoningDeltaEvent => ({
          ...stamp,
          type: "reasoning.delta",
          itemId,
          text,
          kind,
        })),
      fc
        .record({ stamp, itemId: small, tool, text })
        .map(({ stamp, itemId, tool, text }): ToolOutputEvent => ({
          ...stamp,
          type: "tool.output",
          itemId,
          tool,
          text,
        })),
      fc
        .record({ stamp, itemId: small, text })
        .map(({ stamp, itemId, text }): HarnessEvent => ({ ...stamp, type: "text.completed", itemId, text })),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const encoder = new EventJsonEncoder();
        for (const each of events) expect(encoder.encode(each)).toBe(JSON.stringify(each));
      }),
      { numRuns: 300 },
    );
  });
});
