import { describe, expect, it } from "vitest";
import { fakeSteps, type FakeStep } from "../../src/testkit/fake-script.js";
import { collect, ofType } from "../helpers/collect.js";
import { startFakeSession } from "../helpers/fake-session.js";

const command = (status: string, exitCode: number | null) => ({
  type: "commandExecution",
  id: "cmd-1",
  command: "make test",
  status,
  exitCode,
});

function turnWith(after: FakeStep[]): FakeStep[] {
  return [
    fakeSteps.turnStarted(),
    fakeSteps.item("started", command("inProgress", null)),
    ...fakeSteps.agentMessage("msg-1", ["done"]),
    fakeSteps.turnCompleted("completed"),
    ...after,
  ];
}

describe("a tool still open at turn/completed", () => {
  it("gets its late item/completed (exit code kept) before the terminal frame", async () => {
    const { session } = startFakeSession({
      turn: turnWith([{ delayMs: 40 }, fakeSteps.item("completed", command("completed", 0))]),
    });
    const { events, terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
    expect(ofType(events, "tool.completed").map((e) => [e.status, e.exitCode])).toEqual([["completed", 0]]);
    expect(events.at(-2)?.type).toBe("tool.completed");
  });

  it("is completed from turn/completed's items when they list it in a final state, without waiting", async () => {
    const { session } = startFakeSession({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.item("started", command("inProgress", null)),
        fakeSteps.turnCompleted("completed", { items: [command("completed", 3)] }),
      ],
    });
    const { events } = await collect(session);
    expect(ofType(events, "tool.completed").map((e) => [e.status, e.exitCode])).toEqual([["completed", 3]]);
    // completed together with the turn: the tool.completed precedes the turn's own native frame
    const types = events.map((e) => (e.type === "native" ? `native:${e.method}` : e.type));
    expect(types.indexOf("tool.completed")).toBeLessThan(types.indexOf("native:turn/completed"));
  });

  it("without a late completion, is completed with status unknown after the wait; the turn stays completed", async () => {
    const { session } = startFakeSession({ turn: turnWith([]) });
    const { events, terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
    expect(terminal.finalMessage).toBe("done");
    expect(ofType(events, "tool.completed").map((e) => [e.status, e.exitCode])).toEqual([["unknown", null]]);
  });

  it("a cancel while waiting keeps the completed outcome and sends no interrupt", async () => {
    const { fake, session } = startFakeSession({ turn: turnWith([]) });
    const seen: string[] = [];
    for await (const event of session.events) {
      seen.push(event.type);
      if (event.type === "native" && event.method === "turn/completed") session.cancel("stop");
    }
    const terminal = await session.result;
    expect(terminal.outcome).toBe("completed");
    expect(fake.peer.requestsOf("turn/interrupt")).toEqual([]);
    expect(seen.slice(-2)).toEqual(["tool.completed", "terminal"]);
  });

  it("a late item/completed of another turn stays foreign", async () => {
    const { session } = startFakeSession({
      turn: turnWith([fakeSteps.item("completed", command("completed", 0), { turnId: "turn-other" })]),
    });
    const { events } = await collect(session);
    expect(ofType(events, "tool.completed").map((e) => e.status)).toEqual(["unknown"]);
    expect(ofType(events, "passthrough").some((e) => e.reason === "foreign")).toBe(true);
  });
});
