import { describe, expect, it } from "vitest";
import { diffSummary, planLine } from "../../src/cli/plan-and-diff.js";

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
