import { describe, expect, it } from "vitest";
import type { AgentToolKind, HarnessEvent } from "../../src/harness/events.js";
import { ev, renderer } from "./helpers/human-render-harness.js";
import { TOOL_OUTPUT_PREVIEW_LINES } from "../../src/internal/test-hooks.js";

// codex 0.171.0 does not stream what a command printed before its first poll: that part (all of a quick
// command's output) is only in the completed item's aggregatedOutput.

function started(itemId: string, tool: AgentToolKind = "command"): HarnessEvent {
  return ev({ type: "tool.started", itemId, tool, title: "ls", item: {} });
}

function completed(
  itemId: string,
  item: Record<string, unknown>,
  tool: AgentToolKind = "command",
): HarnessEvent {
  return ev({
    type: "tool.completed",
    itemId,
    tool,
    title: "ls",
    status: "completed",
    exitCode: tool === "command" ? 0 : null,
    item,
  });
}

describe("HumanRenderer: command output that was never streamed", () => {
  it("shows aggregatedOutput when no tool.output was seen for the command", () => {
    const { r, stdout, stderr } = renderer();
    r.render(started("c"));
    r.render(completed("c", { aggregatedOutput: "a.txt\nb.txt\n" }));
    expect(stderr.text).toBe("$ ls\n  │ a.txt\n  │ b.txt\n  ↳ exit 0\n");
    expect(stdout.text).toBe("");
  });

  it("bounds it like streamed output, keeping a last line without a newline", () => {
    const { r, stderr } = renderer();
    const lines = Array.from({ length: TOOL_OUTPUT_PREVIEW_LINES + 5 }, (_, i) => `line ${i + 1}`);
    r.render(started("c"));
    r.render(completed("c", { aggregatedOutput: lines.join("\n") }));
    const shown = lines
      .slice(0, TOOL_OUTPUT_PREVIEW_LINES)
      .map((line) => `  │ ${line}\n`)
      .join("");
    expect(stderr.text).toBe(`$ ls\n${shown}  │ … 5 more lines\n  ↳ exit 0\n`);
  });

  it("does not repeat output that was already streamed for that command", () => {
    const { r, stderr } = renderer();
    r.render(started("c"));
    r.render(ev({ type: "tool.output", itemId: "c", tool: "command", text: "second\n" }));
    r.render(completed("c", { aggregatedOutput: "first\nsecond\n" }));
    expect(stderr.text).toBe("$ ls\n  │ second\n  ↳ exit 0\n");
  });

  it("keys on the item: streamed output of another command does not hide this one's", () => {
    const { r, stderr } = renderer();
    r.render(started("a"));
    r.render(ev({ type: "tool.output", itemId: "a", tool: "command", text: "from a\n" }));
    r.render(completed("a", { aggregatedOutput: "from a\n" }));
    r.render(started("b"));
    r.render(completed("b", { aggregatedOutput: "from b\n" }));
    expect(stderr.text).toBe("$ ls\n  │ from a\n  ↳ exit 0\n$ ls\n  │ from b\n  ↳ exit 0\n");
  });

  it("shows nothing extra for an empty, missing or non-string aggregatedOutput, or for other tools", () => {
    const { r, stderr } = renderer();
    r.render(completed("c1", { aggregatedOutput: "" }));
    r.render(completed("c2", { aggregatedOutput: null }));
    r.render(completed("c3", {}));
    r.render(completed("m", { aggregatedOutput: "not a command\n" }, "mcp"));
    expect(stderr.text).toBe("  ↳ exit 0\n  ↳ exit 0\n  ↳ exit 0\n  ↳ completed\n");
  });
});
