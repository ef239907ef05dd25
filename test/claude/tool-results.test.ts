/** The pure readers behind the mapper's tool events: results, exit status, file changes, plans, usage. */
import { describe, expect, it } from "vitest";
import { addUsage, contextWindowOf, resultUsage, usageFromMessages } from "../../src/claude/claude-usage.js";
import { fileChangesOf, unifiedDiffOfHunks } from "../../src/claude/file-changes.js";
import { unifiedDiffOfNewFile } from "../../src/unified-diff.js";
import { PlanTracker } from "../../src/claude/plan-tracker.js";
import { classifyLine, lineMethod } from "../../src/claude/stream-json-lines.js";
import { claudeToolKind, mcpToolName } from "../../src/claude/tool-kinds.js";
import { commandOutcome, toolResultsOf, toolStatus } from "../../src/claude/tool-results.js";

const result = (text: string, isError: boolean) => ({ toolUseId: "t", isError, text, block: {} });

describe("tool results", () => {
  it("reads tool_result blocks: a string, text parts, an image part", () => {
    expect(
      toolResultsOf([
        { type: "tool_result", tool_use_id: "a", content: "plain", is_error: true },
        {
          type: "tool_result",
          tool_use_id: "b",
          content: [{ type: "text", text: "x" }, { type: "image" }, 7],
        },
        { type: "tool_result", content: "no id" },
        { type: "text", text: "not a result" },
      ]).map((r) => [r.toolUseId, r.isError, r.text]),
    ).toEqual([
      ["a", true, "plain"],
      ["b", false, "x[image]"],
    ]);
  });

  it("parses a command's exit status from `Exit code N` and strips that line from the output", () => {
    expect(commandOutcome(result("Exit code 3\nhi\nerr", true), "Error: …")).toEqual({
      exitCode: 3,
      output: "hi\nerr",
    });
    expect(commandOutcome(result("Exit code 137", true), undefined)).toEqual({ exitCode: 137, output: "" });
    expect(
      commandOutcome(result("<tool_use_error>Blocked: sleep 30</tool_use_error>", true), undefined),
    ).toEqual({
      exitCode: null,
      output: "<tool_use_error>Blocked: sleep 30</tool_use_error>",
    });
    // a successful command that prints "Exit code 5" exited 0
    expect(commandOutcome(result("Exit code 5\n", false), { stdout: "Exit code 5" })).toEqual({
      exitCode: 0,
      output: "Exit code 5\n",
    });
    expect(commandOutcome(result("", false), { backgroundTaskId: "b1" }).exitCode).toBeNull();
    expect(commandOutcome(result("", false), { interrupted: true }).exitCode).toBeNull();
  });

  it("gives a status: declined, failed, Claude's own, or completed", () => {
    expect(toolStatus(result("", true), undefined, true)).toBe("declined");
    expect(toolStatus(result("", true), { status: "completed" }, false)).toBe("failed");
    expect(toolStatus(result("", false), { status: "async_launched" }, false)).toBe("async_launched");
    expect(toolStatus(result("", false), { status: "" }, false)).toBe("completed");
    expect(toolStatus(result("", false), "text", false)).toBe("completed");
  });

  it("maps tool names to kinds, MCP names to server and tool", () => {
    expect(
      ["Bash", "Edit", "Read", "Glob", "Agent", "TaskCreate", "Cron", "constructor"].map(claudeToolKind),
    ).toEqual(["command", "fileChange", "fileRead", "search", "subagent", "plan", "other", "other"]);
    expect(mcpToolName("mcp__loop__echo")).toEqual({ server: "loop", tool: "echo" });
    expect(mcpToolName("mcp__solo")).toEqual({ server: "solo", tool: "" });
    expect(mcpToolName("Bash")).toBeNull();
  });
});

describe("file changes", () => {
  it("renders hunks and new files as unified diffs", () => {
    expect(
      unifiedDiffOfHunks([
        { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: ["-a", "+b", " c"] },
        { oldStart: "x", lines: [] },
        { oldStart: 9, oldLines: 0, newStart: 9, newLines: 1, lines: ["+z", 5] },
      ]),
    ).toBe("@@ -1,2 +1,2 @@\n-a\n+b\n c\n@@ -9,0 +9,1 @@\n+z\n");
    expect(unifiedDiffOfHunks([])).toBeNull();
    expect(unifiedDiffOfHunks("nope")).toBeNull();
    expect(unifiedDiffOfNewFile("one\ntwo")).toBe(
      "@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n",
    );
    expect(unifiedDiffOfNewFile("")).toBe("");
  });

  it("reads each editing tool's result, with the input as the fallback", () => {
    expect(fileChangesOf("Write", { file_path: "/a", content: "x\n" }, { type: "create" })).toEqual([
      { path: "/a", kind: "add", diff: "@@ -0,0 +1,1 @@\n+x\n" },
    ]);
    expect(
      fileChangesOf("Write", { file_path: "/a" }, { type: "update", filePath: "/b", structuredPatch: [] }),
    ).toEqual([{ path: "/b", kind: "update", diff: null }]);
    expect(fileChangesOf("MultiEdit", { file_path: "/m" }, "Error")).toEqual([
      { path: "/m", kind: "update", diff: null },
    ]);
    expect(fileChangesOf("NotebookEdit", { notebook_path: "/n.ipynb" }, {})).toEqual([
      { path: "/n.ipynb", kind: "update", diff: null },
    ]);
    expect(fileChangesOf("Edit", {}, {})).toEqual([]);
  });
});

describe("PlanTracker", () => {
  it("follows TaskCreate, TaskUpdate (status, subject, deleted) and TaskList", () => {
    const plan = new PlanTracker();
    const steps = (body: unknown) => (body as { steps: unknown } | null)?.steps ?? null;
    expect(steps(plan.update("TaskCreate", { subject: "A" }, { task: { id: "1", subject: "A" } }))).toEqual([
      { step: "A", status: "pending" },
    ]);
    expect(steps(plan.update("TaskCreate", { subject: "B" }, { task: { id: 2 } }))).toEqual([
      { step: "A", status: "pending" },
      { step: "B", status: "pending" },
    ]);
    expect(
      steps(plan.update("TaskUpdate", { taskId: "2", status: "in_progress", subject: "B2" }, {})),
    ).toEqual([
      { step: "A", status: "pending" },
      { step: "B2", status: "inProgress" },
    ]);
    expect(plan.update("TaskUpdate", { taskId: "9", status: "completed" }, {})).toBeNull();
    expect(steps(plan.update("TaskUpdate", { taskId: "1" }, { statusChange: { to: "deleted" } }))).toEqual([
      { step: "B2", status: "inProgress" },
    ]);
    expect(plan.update("TaskGet", { taskId: "2" }, {})).toBeNull();
    expect(
      steps(plan.update("TaskList", {}, { tasks: [{ id: "2", subject: "B2", status: "blocked" }] })),
    ).toEqual([{ step: "B2", status: "blocked" }]);
  });

  it("lets a TaskCreate naming a task id already listed replace that entry, in place", () => {
    const plan = new PlanTracker();
    const steps = (body: unknown) => (body as { steps: unknown } | null)?.steps ?? null;
    plan.update("TaskCreate", { subject: "A" }, { task: { id: "1", subject: "A" } });
    plan.update("TaskCreate", { subject: "B" }, { task: { id: "2", subject: "B" } });
    plan.update("TaskUpdate", { taskId: "1", status: "completed" }, {});
    expect(steps(plan.update("TaskCreate", { subject: "C" }, { task: { id: 1, subject: "C" } }))).toEqual([
      { step: "C", status: "pending" },
      { step: "B", status: "pending" },
    ]);
    expect(plan.update("TaskCreate", { subject: "C" }, { task: { id: "1", subject: "C" } })).toBeNull();
  });

  it("takes TodoWrite's whole list, from the result or else the input, and ignores odd entries", () => {
    const plan = new PlanTracker();
    const body = plan.update(
      "TodoWrite",
      { todos: [{ content: "x", status: "completed" }, { nope: 1 }] },
      {},
    );
    expect(body).toEqual({
      type: "plan.updated",
      steps: [{ step: "x", status: "completed" }],
      explanation: null,
      native: expect.objectContaining({ tool: "TodoWrite" }),
    });
    expect(plan.update("TodoWrite", { todos: [{ content: "x", status: "completed" }] }, {})).toBeNull();
  });
});

describe("usage", () => {
  it("counts cache reads and writes into input, as the harness Usage does", () => {
    expect(
      usageFromMessages({
        input_tokens: 10,
        cache_creation_input_tokens: 3,
        cache_read_input_tokens: 5,
        output_tokens: 7,
        output_tokens_details: { thinking_tokens: 2 },
      }),
    ).toEqual({
      inputTokens: 18,
      cacheReadTokens: 5,
      cacheWriteTokens: 3,
      outputTokens: 7,
      reasoningTokens: 2,
      totalTokens: 25,
    });
    expect(usageFromMessages({ input_tokens: -1, output_tokens: "9" })).toEqual(usageFromMessages(null));
    const one = usageFromMessages({ input_tokens: 1, output_tokens: 1 });
    expect(addUsage(one, one).totalTokens).toBe(4);
    expect(
      resultUsage({ usage: {}, total_cost_usd: Number.NaN }, usageFromMessages(null)),
    ).not.toHaveProperty("costUsd");
  });

  it("finds the context window of the turn's model", () => {
    const modelUsage = { a: { contextWindow: 200000 }, b: { contextWindow: 1000000 } };
    expect(contextWindowOf(modelUsage, "b")).toBe(1000000);
    expect(contextWindowOf(modelUsage, null)).toBeNull();
    expect(contextWindowOf({ only: { contextWindow: 5 } }, "other")).toBe(5);
    expect(contextWindowOf("x", "a")).toBeNull();
  });
});

describe("line classification", () => {
  it("names lines by type, system subtype and stream event type", () => {
    expect(lineMethod({ type: "system", subtype: "init" })).toBe("system/init");
    expect(lineMethod({ type: "stream_event", event: { type: "ping" } })).toBe("stream_event/ping");
    expect(lineMethod({ type: "result" })).toBe("result");
    expect(lineMethod({})).toBe("unknown");
  });

  it("accepts a plain-string user content and a toString type as unknown", () => {
    expect(classifyLine({ type: "user", message: { role: "user", content: "hi" } }).kind).toBe("user");
    expect(classifyLine({ type: "toString" }).kind).toBe("unknown");
    expect(classifyLine({ type: "system", subtype: "hasOwnProperty" }).kind).toBe("unknown");
  });
});
