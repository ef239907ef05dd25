import { describe, expect, it } from "vitest";
import { diffSummary, fileChangesSummary, planLine } from "../../src/cli/plan-and-diff.js";
import { ev, renderer } from "./helpers/human-render-harness.js";

describe("plan and diff lines of the human renderer", () => {
  it("shows a plan as one compact checklist line", () => {
    expect(
      planLine([
        { step: "read", status: "completed" },
        { step: "fix", status: "inProgress" },
        { step: "test", status: "pending" },
        { step: "odd", status: "weird" },
      ]),
    ).toBe("plan: ✓ read · ▸ fix · ○ test · · odd");
    expect(planLine([])).toBe("plan: (empty)");
  });

  it("summarizes a unified diff: files, added and removed lines without headers", () => {
    const diff = [
      "diff --git a/src/a.ts b/src/a.ts",
      "--- a/src/a.ts",
      "+++ b/src/a.ts",
      "@@ -1,2 +1,2 @@",
      "-old",
      "+new",
      "+more",
      "diff --git a/b.txt b/b.txt",
      "--- /dev/null",
      "+++ b/b.txt",
      "+x",
    ].join("\n");
    expect(diffSummary(diff)).toBe("2 files changed, +3 −1");
    expect(diffSummary("")).toBeNull();
  });
});

describe("the plan line in the human renderer", () => {
  const plan = (status: "pending" | "inProgress" | "completed") =>
    ev({ type: "plan.updated", steps: [{ step: "fix", status }], explanation: null, native: {} });
  const REWRITE = "\x1b[1A\r\x1b[2K";

  it("on a terminal, a plan update rewrites the previous plan line in place", () => {
    const { r, stderr } = renderer({ stderrIsTTY: true });
    r.render(plan("pending"));
    r.render(plan("inProgress"));
    r.render(plan("completed"));
    expect(stderr.text).toBe(`plan: ○ fix\n${REWRITE}plan: ▸ fix\n${REWRITE}plan: ✓ fix\n`);
  });

  it("on a terminal, a plan update after other output starts a new line", () => {
    const { r, stderr } = renderer({ stderrIsTTY: true });
    r.render(plan("pending"));
    r.render(ev({ type: "text.delta", itemId: "m", text: "working" }));
    r.render(plan("inProgress"));
    r.render(ev({ type: "warning", method: "warning", message: "careful", native: {} }));
    r.render(plan("completed"));
    expect(stderr.text).not.toContain(REWRITE);
    expect(stderr.text.split("\n").filter((line) => line.startsWith("plan:"))).toHaveLength(3);
  });

  it("on a terminal, a plan line is cut to the terminal's width so that the rewrite stays on one line", () => {
    const { r, stderr } = renderer({ stderrIsTTY: true });
    Object.assign(stderr, { columns: 12 });
    r.render(
      ev({
        type: "plan.updated",
        steps: [{ step: "a long step name", status: "pending" }],
        explanation: null,
        native: {},
      }),
    );
    expect(stderr.text).toBe("plan: ○ a …\n");
  });

  it("on a terminal, a plan line of wide characters is cut by the columns they take, never mid-character", () => {
    const { r, stderr } = renderer({ stderrIsTTY: true });
    Object.assign(stderr, { columns: 20 });
    const step = (text: string) =>
      ev({ type: "plan.updated", steps: [{ step: text, status: "pending" }], explanation: null, native: {} });
    // each of 界 and 😀 takes two columns: 15 of them are 30 columns on a 20-column terminal
    r.render(step("界".repeat(15)));
    r.render(step("😀".repeat(15)));
    const [first, second] = stderr.text.split("\n");
    expect(first).toBe(`plan: ○ ${"界".repeat(5)}…`);
    expect(second).toBe(`${REWRITE}plan: ○ ${"😀".repeat(5)}…`);
  });

  it("elsewhere every plan update is its own line", () => {
    const { r, stderr } = renderer();
    r.render(plan("pending"));
    r.render(plan("completed"));
    expect(stderr.text).toBe("plan: ○ fix\nplan: ✓ fix\n");
  });
});

describe("the changed-files summary without diff.updated (Claude Code sends none)", () => {
  it("is made from the turn's file.changed events", () => {
    const { r, stderr } = renderer();
    r.render(
      ev({
        type: "file.changed",
        itemId: "e1",
        status: "completed",
        changes: [{ path: "/w/a.ts", kind: "update", diff: "@@ -1,1 +1,2 @@\n-old\n+new\n+more\n" }],
      }),
    );
    r.render(
      ev({
        type: "file.changed",
        itemId: "e2",
        status: "completed",
        changes: [
          { path: "/w/b.txt", kind: "add", diff: "@@ -0,0 +1,1 @@\n+x\n" },
          { path: "/w/a.ts", kind: "update", diff: null },
        ],
      }),
    );
    r.render(
      ev({
        type: "terminal",
        outcome: "completed",
        finalMessage: null,
        usage: null,
        model: null,
        threadId: null,
        failure: null,
        cancellation: null,
      }),
    );
    expect(stderr.text).toContain("· 2 files changed, +3 −1");
  });

  it("names no line counts when no change carried a diff", () => {
    expect(fileChangesSummary([{ path: "a", kind: "update", diff: null }])).toBe("1 file changed");
    expect(fileChangesSummary([])).toBeNull();
  });
});
