import { describe, expect, it } from "vitest";
import { fakeSteps, FAKE_THREAD_ID, FAKE_TURN_ID } from "../../src/testkit/fake-script.js";
import { collect, ofType } from "../helpers/collect.js";
import { startFakeSession } from "../helpers/fake-session.js";

const ids = { threadId: FAKE_THREAD_ID, turnId: FAKE_TURN_ID };
const patch = {
  type: "fileChange",
  id: "fc-1",
  status: "completed",
  changes: [
    { path: "src/a.ts", kind: { type: "update", move_path: null }, diff: "@@ -1 +1 @@\n-a\n+b\n" },
    // codex sends an added file's content as its diff (0.171 measured)
    { path: "src/new.ts", kind: "add", diff: "x\n" },
    { path: 7, kind: "add" },
  ],
};

describe("typed events for what a UI shows (through the real framing)", () => {
  it("plan, diff, file changes and rate limits become typed events that keep the native frame", async () => {
    const { session } = startFakeSession({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.notify("turn/plan/updated", {
          ...ids,
          explanation: "first look, then fix",
          plan: [
            { step: "read the test", status: "completed" },
            { step: "fix the bug", status: "inProgress" },
            { nope: true },
          ],
        }),
        fakeSteps.item("started", { ...patch, status: "inProgress" }),
        fakeSteps.item("completed", patch),
        fakeSteps.notify("turn/diff/updated", { ...ids, diff: "diff --git a/src/a.ts b/src/a.ts\n" }),
        fakeSteps.notify("account/rateLimits/updated", {
          rateLimits: {
            primary: { usedPercent: 42, resetsAt: 1_700_000_000, windowDurationMins: 300 },
            secondary: null,
          },
        }),
        ...fakeSteps.agentMessage("m", ["done"]),
        fakeSteps.turnCompleted("completed"),
      ],
    });
    const { events, terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
    expect(ofType(events, "plan.updated")).toEqual([
      expect.objectContaining({
        steps: [
          { step: "read the test", status: "completed" },
          { step: "fix the bug", status: "inProgress" },
        ],
        explanation: "first look, then fix",
        native: expect.objectContaining({ plan: expect.any(Array) }),
      }),
    ]);
    expect(ofType(events, "file.changed")).toEqual([
      expect.objectContaining({
        itemId: "fc-1",
        status: "completed",
        changes: [
          { path: "src/a.ts", kind: "update", diff: "@@ -1 +1 @@\n-a\n+b\n" },
          { path: "src/new.ts", kind: "add", diff: "@@ -0,0 +1,1 @@\n+x\n" },
        ],
      }),
    ]);
    const types = events.map((e) => e.type);
    expect(types.indexOf("file.changed")).toBeLessThan(types.indexOf("tool.completed"));
    expect(ofType(events, "diff.updated").map((e) => e.diff)).toEqual(["diff --git a/src/a.ts b/src/a.ts\n"]);
    expect(ofType(events, "rate-limits")).toEqual([
      expect.objectContaining({
        primary: { usedPercent: 42, resetsAt: 1_700_000_000, windowDurationMins: 300 },
        secondary: null,
      }),
    ]);
  });

  it("a plan of another turn stays foreign", async () => {
    const { session } = startFakeSession({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.notify("turn/plan/updated", { threadId: FAKE_THREAD_ID, turnId: "turn-other", plan: [] }),
        fakeSteps.turnCompleted("completed"),
      ],
    });
    const { events } = await collect(session);
    expect(ofType(events, "plan.updated")).toEqual([]);
    expect(ofType(events, "passthrough").map((e) => e.reason)).toContain("foreign");
  });
});

describe("the testkit scripts what a UI shows", () => {
  it("fakeSteps.plan, fileChange and diff produce plan.updated, file.changed and diff.updated", async () => {
    const { session } = startFakeSession({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.plan([{ step: "edit", status: "inProgress" }], "one step"),
        ...fakeSteps.fileChange("fc-9", [{ path: "a.txt", kind: "add", diff: "hi\n" }]),
        fakeSteps.diff("diff --git a/a.txt b/a.txt\n+hi\n"),
        fakeSteps.turnCompleted("completed"),
      ],
    });
    const { events } = await collect(session);
    expect(ofType(events, "plan.updated")[0]).toMatchObject({
      steps: [{ step: "edit", status: "inProgress" }],
      explanation: "one step",
    });
    expect(ofType(events, "file.changed")[0]).toMatchObject({
      itemId: "fc-9",
      changes: [{ path: "a.txt", kind: "add", diff: "@@ -0,0 +1,1 @@\n+hi\n" }],
    });
    expect(ofType(events, "diff.updated")[0]?.diff).toContain("a.txt");
  });
});
