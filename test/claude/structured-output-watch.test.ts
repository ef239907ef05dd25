import { describe, expect, it } from "vitest";
import {
  checkedStructuredOutput,
  StructuredOutputWatch,
} from "../../src/claude/turn/structured-output-watch.js";

const call = (id: string, name = "StructuredOutput", parent: string | null = null) => ({
  type: "assistant",
  parent_tool_use_id: parent,
  message: { role: "assistant", content: [{ type: "tool_use", id, name, input: {} }] },
});
const result = (id: string, content: unknown, isError = true, parent: string | null = null) => ({
  type: "user",
  parent_tool_use_id: parent,
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] },
});
const reminder = {
  type: "user",
  isSynthetic: true,
  parent_tool_use_id: null,
  message: {
    role: "user",
    content: "[structured-output-enforce] You MUST call the StructuredOutput tool now.",
  },
};

describe("StructuredOutputWatch", () => {
  it("keeps Claude Code's words for the last StructuredOutput call it refused", () => {
    const watch = new StructuredOutputWatch();
    expect(watch.observe(call("a"))).toBe(false);
    watch.observe(result("a", "Output does not match required schema: /n: must be number"));
    expect(watch.rejection).toBe("Output does not match required schema: /n: must be number");
    watch.observe(call("b"));
    watch.observe(
      result("b", [{ type: "text", text: "first" }, { type: "image" }, { type: "text", text: "second" }]),
    );
    expect(watch.rejection).toBe("first\nsecond");
  });

  it("ignores other tools, accepted calls, sub-agents' calls and results for ids it never saw", () => {
    const watch = new StructuredOutputWatch();
    watch.observe(call("bash", "Bash"));
    watch.observe(result("bash", "exit 1"));
    watch.observe(call("ok"));
    watch.observe(result("ok", "Structured output provided successfully", false));
    watch.observe(call("sub", "StructuredOutput", "toolu_task"));
    watch.observe(result("sub", "refused", true, "toolu_task"));
    watch.observe(result("unknown", "refused"));
    watch.observe({ type: "user", message: "not a record" });
    expect(watch.rejection).toBeNull();
  });

  it("counts the reminders and says which lines are one", () => {
    const watch = new StructuredOutputWatch();
    expect(watch.observe(reminder)).toBe(true);
    expect(watch.observe({ ...reminder, isSynthetic: false })).toBe(false);
    expect(watch.observe({ ...reminder, parent_tool_use_id: "toolu_task" })).toBe(false);
    expect(watch.observe(reminder)).toBe(true);
    expect(watch.reminders).toBe(2);
  });

  it("quotes at most 1,000 characters of a rejection", () => {
    const watch = new StructuredOutputWatch();
    watch.observe(call("a"));
    watch.observe(result("a", "x".repeat(5_000)));
    expect(watch.rejection).toHaveLength(1_000);
  });
});

describe("checkedStructuredOutput", () => {
  it("a check that throws fails at parse with the value's first 200 characters and how many more, as on Codex", () => {
    const value = { text: "x".repeat(1000) };
    const checked = checkedStructuredOutput(() => {
      throw new Error("validator broke");
    }, value);
    const json = JSON.stringify(value);
    expect(checked).toEqual({
      ok: false,
      failure: {
        source: "parse",
        message: "Claude Code's structured output could not be checked against the schema (validator broke)",
        line: `${json.slice(0, 200)}… (${json.length - 200} more chars)`,
        errors: ["validator broke"],
      },
    });
  });
});
