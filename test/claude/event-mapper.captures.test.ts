/**
 * The event mapper against what the real Claude Code printed (test/fixtures/claude, 2.1.332 unless the name
 * says `@2.0.77`).
 */
import { describe, expect, it } from "vitest";
import { capture, mapCapture, mapLines, ofType } from "./claude-captures.js";
import { expectWellFormed } from "../helpers/well-formed.js";

describe("a text turn (2.1.332)", () => {
  const { events, results, mapper } = mapCapture("text");

  it("streams the text delta, completes the block under the same item id and ends with the result", () => {
    expect(ofType(events, "text.delta")).toEqual([
      { type: "text.delta", itemId: "msg_loop_1:0", text: "Hello from loopback." },
    ]);
    expect(ofType(events, "text.completed")).toEqual([
      { type: "text.completed", itemId: "msg_loop_1:0", text: "Hello from loopback." },
    ]);
    expect(mapper.finalMessage).toBe("Hello from loopback.");
    expect(results.at(-1)?.result?.subtype).toBe("success");
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: "native", method: "result" }));
  });

  it("starts the turn at system/init with Claude's session id, model and version", () => {
    const init = results.find((result) => result.init !== undefined);
    expect(init?.events).toEqual([
      expect.objectContaining({ type: "native", method: "system/init" }),
      { type: "turn.started", threadId: "223084af-e283-4f0a-8675-b4e0fda9b59a" },
    ]);
    expect(mapper.sessionId).toBe("223084af-e283-4f0a-8675-b4e0fda9b59a");
    expect(mapper.turnId).toBe(init?.init?.uuid);
    expect(mapper.sessionStartedBody({ pid: 42 })).toEqual({
      type: "session.started",
      threadId: "223084af-e283-4f0a-8675-b4e0fda9b59a",
      model: "claude-opus-5-5",
      cwd: "/tmp/cl-text-aaMxCY",
      harnessVersion: "2.1.332",
      pid: 42,
    });
  });

  it("reports the request's usage at message_delta and the turn's usage and cost at the result", () => {
    const usages = ofType(events, "usage");
    expect(usages).toHaveLength(2);
    const request = {
      inputTokens: 19,
      cacheReadTokens: 5,
      cacheWriteTokens: 3,
      outputTokens: 7,
      reasoningTokens: 0,
      totalTokens: 26,
    };
    expect(usages[0]).toEqual({ type: "usage", usage: request, last: request, modelContextWindow: null });
    expect(usages[1]).toEqual({
      type: "usage",
      usage: { ...request, costUsd: 0.00019999999999999998 },
      last: request,
      modelContextWindow: 1000000,
    });
    expect(mapper.usage?.costUsd).toBeCloseTo(0.0002);
  });

  it("keeps every other line as a native event: nothing is dropped, nothing is unknown", () => {
    expect(results.every((result) => result.events.length > 0)).toBe(true);
    expect(ofType(events, "passthrough")).toEqual([]);
    expect(ofType(events, "native").map((event) => event.method)).toEqual([
      "system/init",
      "system/status",
      "stream_event/message_start",
      "stream_event/content_block_start",
      "stream_event/content_block_stop",
      "stream_event/message_delta",
      "stream_event/message_stop",
      "result",
    ]);
  });
});

describe("a Bash tool turn", () => {
  it("pairs a failing command by its tool_use id, with the exit status parsed from `Exit code N`", () => {
    const { events, mapper } = mapCapture("bash");
    expectWellFormed(events);
    const tools = events.filter((event) => event.type.startsWith("tool."));
    expect(tools).toEqual([
      {
        type: "tool.started",
        itemId: "toolu_loop_1_1",
        tool: "command",
        title: "echo hi-from-bash; echo to-stderr >&2; exit 3",
        item: expect.objectContaining({ type: "tool_use", name: "Bash" }),
      },
      { type: "tool.output", itemId: "toolu_loop_1_1", tool: "command", text: "hi-from-bash\nto-stderr" },
      {
        type: "tool.completed",
        itemId: "toolu_loop_1_1",
        tool: "command",
        title: "echo hi-from-bash; echo to-stderr >&2; exit 3",
        status: "failed",
        exitCode: 3,
        item: expect.objectContaining({
          name: "Bash",
          tool_result: expect.objectContaining({ is_error: true }),
          tool_use_result: "Error: Exit code 3\nhi-from-bash\nto-stderr",
        }),
      },
    ]);
    // the text before the tool and the text after it are two items; the final message is the last
    expect(ofType(events, "text.completed").map((event) => [event.itemId, event.text])).toEqual([
      ["msg_loop_1:0", "Running it."],
      ["msg_loop_2:0", "Bash done."],
    ]);
    expect(mapper.finalMessage).toBe("Bash done.");
  });

  it("gives a successful command exit code 0 and its output", () => {
    const { events } = mapCapture("bashok");
    expectWellFormed(events);
    expect(ofType(events, "tool.output")).toEqual([
      { type: "tool.output", itemId: "toolu_loop_1_0", tool: "command", text: "ok-42" },
    ]);
    expect(ofType(events, "tool.completed")).toEqual([
      expect.objectContaining({ status: "completed", exitCode: 0, title: "echo ok-$((6*7))" }),
    ]);
  });

  it("reads 2.0.77's shapes the same way", () => {
    const { events, mapper } = mapCapture("bashok@2.0.77");
    expectWellFormed(events);
    expect(ofType(events, "tool.completed")).toEqual([
      expect.objectContaining({ status: "completed", exitCode: 0 }),
    ]);
    expect(mapper.finalMessage).toBe("Bash ok done.");
    expect(mapper.harnessVersion).toBe("2.0.77");
    expect(ofType(events, "passthrough")).toEqual([]);
  });
});

describe("file tools", () => {
  it("maps Read to fileRead and Edit to fileChange with the structured patch as a unified diff", () => {
    const { events } = mapCapture("edit");
    expectWellFormed(events);
    expect(ofType(events, "tool.started").map((event) => [event.tool, event.title])).toEqual([
      ["fileRead", "/tmp/cl-edit-1yi36n/a.txt"],
      ["fileChange", "/tmp/cl-edit-1yi36n/a.txt"],
    ]);
    expect(ofType(events, "file.changed")).toEqual([
      {
        type: "file.changed",
        itemId: "toolu_loop_2_0",
        status: "completed",
        changes: [
          {
            path: "/tmp/cl-edit-1yi36n/a.txt",
            kind: "update",
            diff: "@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n",
          },
        ],
      },
    ]);
    // file.changed comes right before its tool.completed
    const index = events.findIndex((event) => event.type === "file.changed");
    expect(events[index + 1]).toEqual(
      expect.objectContaining({ type: "tool.completed", itemId: "toolu_loop_2_0" }),
    );
  });

  it("maps a Write that creates a file to an `add` change with the content as the diff", () => {
    const { events } = mapCapture("write");
    expectWellFormed(events);
    expect(ofType(events, "file.changed")).toEqual([
      expect.objectContaining({
        changes: [
          {
            path: "/tmp/cl-write-QiJ00S/new.txt",
            kind: "add",
            diff: "@@ -0,0 +1,2 @@\n+line one\n+line two\n",
          },
        ],
      }),
    ]);
  });

  it("maps Grep and Glob to search, and completes each by its own id even out of order", () => {
    const { events } = mapCapture("grepenv");
    expectWellFormed(events);
    expect(ofType(events, "tool.completed").map((event) => [event.itemId, event.tool, event.title])).toEqual([
      ["toolu_loop_1_1", "search", "*.txt"],
      ["toolu_loop_1_0", "search", "beta"],
    ]);
  });

  it("marks a Write the permission mode refused as declined, with a warning and no file change", () => {
    const { events } = mapCapture("perm_default_noprompttool_write");
    expectWellFormed(events);
    expect(ofType(events, "warning")).toEqual([
      expect.objectContaining({
        method: "system/permission_denied",
        message: expect.stringContaining("new.txt"),
      }),
    ]);
    expect(ofType(events, "file.changed")).toEqual([]);
    expect(ofType(events, "tool.completed")).toEqual([expect.objectContaining({ status: "declined" })]);
  });
});

describe("MCP, plans and subagents", () => {
  it("maps an MCP tool to kind mcp titled server.tool, with its text output", () => {
    const { events } = mapCapture("mcp_http_envheader");
    expectWellFormed(events);
    expect(ofType(events, "tool.started")).toEqual([
      expect.objectContaining({ tool: "mcp", title: "loop.echo" }),
    ]);
    expect(ofType(events, "tool.output")).toEqual([
      { type: "tool.output", itemId: "toolu_loop_1_0", tool: "mcp", text: "echo:hello-mcp" },
    ]);
  });

  it("turns TodoWrite into plan.updated with the whole list in harness statuses", () => {
    const { events } = mapCapture("todowrite");
    expectWellFormed(events);
    expect(ofType(events, "tool.started")).toEqual([
      expect.objectContaining({ tool: "plan", title: "TodoWrite" }),
    ]);
    expect(ofType(events, "plan.updated").map((event) => event.steps)).toEqual([
      [
        { step: "First thing", status: "completed" },
        { step: "Second thing", status: "inProgress" },
        { step: "Third thing", status: "pending" },
      ],
    ]);
  });

  it("follows TaskCreate and TaskUpdate (TaskList changes nothing it already knew)", () => {
    const { events } = mapCapture("tasksv2");
    expectWellFormed(events);
    expect(ofType(events, "plan.updated").map((event) => event.steps)).toEqual([
      [{ step: "First thing", status: "pending" }],
      [{ step: "First thing", status: "inProgress" }],
    ]);
  });

  it("marks a foreground subagent's events with the parent tool id and keeps its text out of the final message", () => {
    const { events, mapper } = mapCapture("taskfg");
    expectWellFormed(events);
    const started = ofType(events, "tool.started");
    expect(started.map((event) => [event.itemId, event.tool, event.parentToolId])).toEqual([
      ["toolu_loop_1_0", "subagent", undefined],
      ["toolu_loop_2_0", "command", "toolu_loop_1_0"],
    ]);
    expect(
      ofType(events, "tool.completed").map((event) => [event.itemId, event.status, event.parentToolId]),
    ).toEqual([
      ["toolu_loop_2_0", "completed", "toolu_loop_1_0"],
      ["toolu_loop_1_0", "completed", undefined],
    ]);
    // the subagent's prompt is a user message of the subagent
    expect(ofType(events, "item")).toEqual([
      expect.objectContaining({
        itemType: "userMessage",
        item: expect.objectContaining({ parent_tool_use_id: "toolu_loop_1_0" }),
      }),
    ]);
    expect(mapper.finalMessage).toBe("Parent done after foreground subagent.");
  });

  it("ends the owned turn at the first result: a background subagent's later lines and Claude's second turn are foreign", () => {
    const lines = capture("task");
    const { events, results, mapper } = mapLines(lines);
    expectWellFormed(events);
    const first = results.findIndex((result) => result.result !== undefined);
    // the subagent's Bash started before the parent's result, its result came after: closed as unknown
    expect(ofType(events, "tool.completed")).toEqual([
      expect.objectContaining({ itemId: "toolu_loop_1_0", tool: "subagent", status: "async_launched" }),
      expect.objectContaining({
        itemId: "toolu_loop_3_0",
        status: "unknown",
        parentToolId: "toolu_loop_1_0",
      }),
    ]);
    const after = results.slice(first + 1).flatMap((result) => result.events);
    expect(after.length).toBeGreaterThan(10);
    expect(after.every((event) => event.type === "passthrough" && event.reason === "foreign")).toBe(true);
    expect(mapper.finalMessage).toBe("Parent done after subagent.");
    expect(mapper.result?.result).toBe("Parent done after subagent.");
  });
});

describe("thinking, structured output, errors and stops", () => {
  it("streams thinking as reasoning deltas and completes it under the same item id", () => {
    const { events } = mapCapture("thinking");
    expect(ofType(events, "reasoning.delta")).toEqual([
      { type: "reasoning.delta", itemId: "msg_loop_1:0", text: "Let me think about it.", kind: "summary" },
    ]);
    expect(ofType(events, "reasoning.completed")).toEqual([
      { type: "reasoning.completed", itemId: "msg_loop_1:0", summary: ["Let me think about it."] },
    ]);
    expect(ofType(events, "text.completed")).toEqual([
      { type: "text.completed", itemId: "msg_loop_1:1", text: "Thought and answered." },
    ]);
  });

  it("pairs the StructuredOutput call like any tool, and the final message is the value's JSON", () => {
    const { events, mapper } = mapCapture("structured");
    expectWellFormed(events);
    expect(ofType(events, "tool.completed")).toEqual([
      expect.objectContaining({ tool: "other", title: "StructuredOutput" }),
    ]);
    expect(mapper.result?.structured_output).toEqual({ answer: 42, ok: true });
    expect(mapper.finalMessage).toBe('{"answer":42,"ok":true}');
  });

  it("keeps the synthetic structured-output reminder as a user message", () => {
    const { events } = mapCapture("nostructured");
    expect(ofType(events, "item")).toEqual([
      expect.objectContaining({
        itemType: "userMessage",
        item: expect.objectContaining({ isSynthetic: true }),
      }),
    ]);
  });

  it("reports a provider error's synthetic assistant message as a warning, not as the model's text", () => {
    for (const name of ["e500noretry", "e401noretry", "e500noretry@2.0.77"]) {
      const { events, mapper } = mapCapture(name);
      expect(ofType(events, "text.completed")).toEqual([]);
      expect(ofType(events, "warning")).toEqual([expect.objectContaining({ method: "assistant" })]);
      expect(mapper.finalMessage).toBeNull();
      expect(mapper.result?.is_error).toBe(true);
    }
  });

  it("pairs a command interrupted mid-run as failed with no exit status", () => {
    const { events, results } = mapCapture("interrupt_bash");
    expectWellFormed(events);
    expect(ofType(events, "tool.completed")).toEqual([
      expect.objectContaining({ status: "failed", exitCode: null }),
    ]);
    expect(results.find((result) => result.controlResponse)?.controlResponse?.response.request_id).toBe(
      "int-1",
    );
  });

  it("closes the tool a budget stop never ran with status unknown before the result", () => {
    for (const name of ["budget", "budget@2.0.77"]) {
      const { events } = mapCapture(name);
      expectWellFormed(events);
      expect(ofType(events, "tool.completed")).toEqual([
        expect.objectContaining({ status: "unknown", exitCode: null }),
      ]);
      const closed = events.findIndex((event) => event.type === "tool.completed");
      expect(
        events.findIndex((event) => event.type === "native" && event.method === "result"),
      ).toBeGreaterThan(closed);
    }
  });

  it("maps a lone result line (an unknown session to resume) without an init", () => {
    const { events, mapper } = mapCapture("resume-unknown");
    expect(events.map((event) => event.type)).toEqual(["usage", "native"]);
    expect(mapper.sessionId).toBe("5f0e7a51-0000-4000-8000-000000000000");
    expect(mapper.turnId).toBeNull();
  });
});
