/**
 * Regressions found by the random-stream trial, through the public API (`createCodex().runStreamed`) and the
 * real JSONL framing. These need the runner to adopt the thread and turn ids while the `thread/start` and
 * `turn/start` responses are routed (JsonRpcConnection `onResult`/`onError`), not after `await` resumes, and
 * the event mapper to look item types up by own property only.
 */
import { describe, expect, it } from "vitest";
import type { HarnessEvent } from "../../src/harness/events.js";
import { FAKE_THREAD_ID, FAKE_TURN_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import { runFakeClientSession } from "../helpers/fake-session.js";

const runStreamed = runFakeClientSession;

const passthroughs = (events: HarnessEvent[]) => events.flatMap((e) => (e.type === "passthrough" ? [e] : []));
const paramsOf = (native: unknown) => (native as { params?: Record<string, unknown> }).params ?? {};

describe("frames in the same chunk as the thread/start and turn/start responses", () => {
  it("an owned turn/completed right behind the turn/start acknowledgement ends the turn", async () => {
    const { terminal } = await runStreamed({
      alongReply: {
        "turn/start": {
          parts: [
            fakeSteps.turnCompleted("completed", {
              items: [{ type: "agentMessage", id: "m1", text: "done", phase: "final_answer" }],
            }),
          ],
        },
      },
    });
    expect(terminal).toMatchObject({ outcome: "completed", failure: null, finalMessage: "done" });
    expect(terminal.turnId).toBe(FAKE_TURN_ID);
  });

  it("a foreign thread's turn/started right behind the thread/start response is not adopted", async () => {
    const { events, terminal } = await runStreamed({
      alongReply: { "thread/start": { parts: [fakeSteps.turnStarted("thr_foreign", "turn_foreign")] } },
      turn: fakeSteps.textTurn("owned answer"),
    });
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "owned answer" });
    for (const event of events) expect([null, FAKE_TURN_ID]).toContain(event.turnId);
    expect(events.filter((e) => e.type === "turn.started")).toHaveLength(1);
    const foreign = passthroughs(events).filter((e) => paramsOf(e.native).threadId === "thr_foreign");
    expect(foreign.map((e) => e.reason)).toEqual(["foreign"]);
  });

  it("another turn's agent message right behind the turn/start acknowledgement is neither streamed nor final", async () => {
    const other = { threadId: FAKE_THREAD_ID, turnId: "turn_other" };
    const { events, terminal } = await runStreamed({
      alongReply: {
        "turn/start": {
          parts: [
            fakeSteps.notify("item/agentMessage/delta", { ...other, itemId: "f1", delta: "FOREIGN" }),
            fakeSteps.item(
              "completed",
              { type: "agentMessage", id: "f1", text: "FOREIGN", phase: "final_answer" },
              other,
            ),
          ],
        },
      },
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.turnCompleted("completed", {
          items: [{ type: "agentMessage", id: "m1", text: "owned", phase: "final_answer" }],
        }),
      ],
    });
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "owned" });
    expect(events.filter((e) => e.type === "text.delta" || e.type === "text.completed")).toEqual([]);
    const foreign = passthroughs(events).filter((e) => paramsOf(e.native).turnId === "turn_other");
    expect(foreign.map((e) => e.reason)).toEqual(["foreign", "foreign"]);
  });

  it("a turn/start error followed in the same chunk by turn/started and a failed turn/completed fails as jsonrpc", async () => {
    const { terminal } = await runStreamed({
      replies: { "turn/start": { error: { code: -32600, message: "turn refused" } } },
      alongReply: {
        "turn/start": {
          parts: [
            fakeSteps.turnStarted(),
            fakeSteps.turnCompleted("failed", { error: { message: "provider failed" } }),
          ],
        },
      },
    });
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "jsonrpc", method: "turn/start", code: -32600 });
  });
});

describe("an owned message that completes without text", () => {
  it("falls back to the owned deltas only: a foreign delta under the same item id is not part of it", async () => {
    const owned = { threadId: FAKE_THREAD_ID, turnId: FAKE_TURN_ID };
    const delta = (ids: Record<string, unknown>, text: string) =>
      fakeSteps.notify("item/agentMessage/delta", { ...ids, itemId: "msg-2", delta: text });
    const { events, terminal } = await runStreamed({
      turn: [
        fakeSteps.turnStarted(),
        delta(owned, "owned "),
        delta({ threadId: "thr_foreign", turnId: "turn_foreign" }, "FOREIGN-thread "),
        delta({ threadId: FAKE_THREAD_ID, turnId: "turn_other" }, "FOREIGN-turn "),
        delta(owned, "answer"),
        fakeSteps.item("completed", { type: "agentMessage", id: "msg-2", phase: "final_answer" }, owned),
        fakeSteps.turnCompleted("completed"),
      ],
    });
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "owned answer" });
    expect(events.filter((e) => e.type === "text.completed")).toEqual([
      expect.objectContaining({ itemId: "msg-2", text: "owned answer" }),
    ]);
    expect(passthroughs(events).map((e) => e.reason)).toEqual(["foreign", "foreign"]);
  });
});

describe("item types named like Object.prototype members", () => {
  const names = ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf"];

  it("become plain item events, never tool events", async () => {
    const items = names.map((type, i) => ({ type, id: `it_${i}` }));
    const { events, terminal } = await runStreamed({
      turn: [
        fakeSteps.turnStarted(),
        ...items.flatMap((item) => [fakeSteps.item("started", item), fakeSteps.item("completed", item)]),
        fakeSteps.turnCompleted("completed"),
      ],
    });
    expect(terminal.outcome).toBe("completed");
    expect(events.filter((e) => e.type.startsWith("tool."))).toEqual([]);
    const itemEvents = events.flatMap((e) => (e.type === "item" ? [[e.phase, e.itemType]] : []));
    expect(itemEvents).toEqual(
      names.flatMap((name) => [
        ["started", name],
        ["completed", name],
      ]),
    );
  });
});
