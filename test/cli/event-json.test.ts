import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import { EventJsonEncoder } from "../../src/cli/event-json.js";
import { Utf8Chunks } from "../../src/cli/utf8-chunks.js";
import type {
  HarnessEvent,
  ReasoningDeltaEvent,
  TextDeltaEvent,
  ToolKind,
  ToolOutputEvent,
} from "../../src/harness/events.js";
import { EventStamper } from "../../src/session/event-stamper.js";
import { TurnEventMapper } from "../../src/codex/turn/event-mapper.js";

type Stamp = "seq" | "harness" | "sessionId" | "turnId" | "at";

/** Stamps what the real mapper makes of `frames` (method, params), as a session does. */
function mappedEvents(frames: [string, Record<string, unknown>][]): HarnessEvent[] {
  const events: HarnessEvent[] = [];
  const times = ["2026-12-04T10:00:00.000Z", "2026-12-04T10:00:00.001Z"];
  let tick = 0;
  const stamper = new EventStamper(
    "codex",
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

/** What one encoder writes for `events`, taken after the events `takeAfter` picks, in chunks of `chunkBytes`. */
function written(
  events: HarnessEvent[],
  chunkBytes?: number,
  takeAfter: (index: number) => boolean = () => false,
) {
  const encoder = new EventJsonEncoder();
  const out = new Utf8Chunks(chunkBytes);
  const taken: Buffer[] = [];
  events.forEach((event, index) => {
    encoder.write(event, out);
    if (takeAfter(index)) taken.push(...out.take());
  });
  taken.push(...out.take());
  return taken;
}

/** `JSON.stringify` of each event, a line each. */
const stringified = (events: HarnessEvent[]) => events.map((event) => `${JSON.stringify(event)}\n`).join("");

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
    expect(Buffer.concat(written(events)).toString("utf8")).toBe(stringified(events));
    // with chunks smaller than any line, every buffer still holds whole lines
    const buffers = written(events, 1);
    expect(buffers.length).toBeGreaterThan(1);
    for (const buffer of buffers) expect(buffer.toString("utf8")).toMatch(/^([^\n]+\n)+$/);
  });

  it("writes what JSON.stringify writes for any sequence of delta and other events", () => {
    // any text; printable ASCII (most deltas: written as is unless it holds `"` or `\`); around the short limit
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 12 }),
      fc.string({ maxLength: 70 }),
      fc.string({ unit: "binary", minLength: 60, maxLength: 70 }),
    );
    const small = fc.constantFrom("a", "b", 'q"uote', "é");
    const stamp = fc.record({
      seq: fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER)),
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
      fc.property(
        fc.array(event, { maxLength: 30 }),
        fc.integer({ min: 1, max: 512 }),
        fc.func(fc.boolean()),
        (events, chunkBytes, takeAfter) => {
          expect(Buffer.concat(written(events, chunkBytes, takeAfter)).toString("utf8")).toBe(
            stringified(events),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
