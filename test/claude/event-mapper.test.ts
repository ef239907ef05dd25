/** The event mapper on hand-made lines: odd input, ownership, ids without partial messages, control lines. */
import { describe, expect, it } from "vitest";
import { ClaudeEventMapper } from "../../src/claude/event-mapper.js";
import { mapLines, ofType } from "./claude-captures.js";
import { expectWellFormed } from "../helpers/well-formed.js";

const init = { type: "system", subtype: "init", session_id: "s-1", uuid: "u-init", model: "m-1", cwd: "/w" };
const result = (extra: Record<string, unknown> = {}) => ({
  type: "result",
  subtype: "success",
  is_error: false,
  result: "done",
  session_id: "s-1",
  ...extra,
});
const assistant = (content: unknown[], extra: Record<string, unknown> = {}) => ({
  type: "assistant",
  message: { id: "msg_a", role: "assistant", model: "m-2", content },
  parent_tool_use_id: null,
  ...extra,
});
const toolResult = (id: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  type: "user",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, ...extra }] },
  parent_tool_use_id: null,
});

describe("ClaudeEventMapper", () => {
  it("passes lines of unknown types, unknown system subtypes and broken shapes through as unknown", () => {
    const odd = [
      { type: "brand_new_line", x: 1 },
      { no: "type" },
      { type: "system", subtype: "brand_new_subtype" },
      { type: "system" },
      { type: "assistant", message: "not an object" },
      { type: "user" },
      { type: "stream_event", event: {} },
      { type: "result", subtype: 7 },
      { type: "control_request", request: { subtype: "x" } },
      { type: "control_response", response: {} },
    ];
    const { events, results } = mapLines(odd);
    expect(events).toEqual(odd.map((line) => ({ type: "passthrough", reason: "unknown", native: line })));
    expect(results.every((r) => r.result === undefined && r.controlRequest === undefined)).toBe(true);
  });

  it("keeps the lines Claude defines without harness meaning as native, named type/subtype", () => {
    const { events } = mapLines([
      init,
      { type: "system", subtype: "task_progress", task_id: "t" },
      { type: "command_lifecycle", command_uuid: "c", state: "queued" },
      { type: "control_cancel_request", request_id: "r" },
      { type: "tool_progress", tool_use_id: "x" },
    ]);
    expect(ofType(events, "native").map((event) => event.method)).toEqual([
      "system/init",
      "system/task_progress",
      "command_lifecycle",
      "control_cancel_request",
      "tool_progress",
    ]);
  });

  it("hands control requests to the caller without events and control responses with a native event", () => {
    const mapper = new ClaudeEventMapper({ sentRequest: (id) => id === "int-1" });
    const request = {
      type: "control_request",
      request_id: "r1",
      request: { subtype: "can_use_tool", input: {} },
    };
    expect(mapper.map(request)).toEqual({ events: [], controlRequest: request });
    const response = {
      type: "control_response",
      response: { subtype: "success", request_id: "int-1", response: {} },
    };
    expect(mapper.map(response)).toEqual({
      events: [{ type: "native", method: "control_response", params: response }],
      controlResponse: response,
    });
    // a response to a request the client never sent is not the session's: foreign, and handed to nobody
    const unasked = { type: "control_response", response: { subtype: "success", request_id: "int-2" } };
    expect(mapper.map(unasked)).toEqual({
      events: [{ type: "passthrough", reason: "foreign", native: unasked }],
    });
  });

  it("after the result, lines are foreign but control lines still reach the caller", () => {
    const mapper = new ClaudeEventMapper({ sentRequest: (id) => id === "end-1" });
    mapper.map(init);
    expect(mapper.map(result()).result).toBeDefined();
    const late = assistant([{ type: "text", text: "late" }]);
    expect(mapper.map(late)).toEqual({ events: [{ type: "passthrough", reason: "foreign", native: late }] });
    expect(mapper.map(result({ result: "second" })).events).toEqual([
      expect.objectContaining({ type: "passthrough", reason: "foreign" }),
    ]);
    expect(mapper.finalMessage).toBe("done");
    const answer = { type: "control_response", response: { subtype: "success", request_id: "end-1" } };
    expect(mapper.map(answer).controlResponse).toBe(answer);
  });

  it("a line of another session than the init's is foreign and changes nothing; lines without one are the turn's", () => {
    const mapper = new ClaudeEventMapper();
    mapper.map(init);
    const other = { session_id: "s-other" };
    const foreign = [
      { ...init, ...other, uuid: "u-other" },
      {
        type: "stream_event",
        event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "F" } },
        ...other,
      },
      { type: "stream_event", event: { type: "message_delta", usage: { output_tokens: 9 } }, ...other },
      assistant([{ type: "text", text: "FOREIGN" }], other),
      assistant([{ type: "tool_use", id: "toolu_f", name: "TodoWrite", input: { todos: [] } }], other),
      result({ ...other, result: "FOREIGN" }),
    ];
    for (const line of foreign)
      expect(mapper.map(line)).toEqual({
        events: [{ type: "passthrough", reason: "foreign", native: line }],
      });
    expect([mapper.result, mapper.usage, mapper.partialMessage, mapper.finalMessage]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect([mapper.sessionId, mapper.turnId, mapper.openToolCount]).toEqual(["s-1", "u-init", 0]);
    expect(
      ofType(mapper.map(assistant([{ type: "text", text: "owned" }])).events, "text.completed"),
    ).toHaveLength(1);
    expect(mapper.map(result()).result).toBeDefined();
    expect(mapper.finalMessage).toBe("done");
  });

  it("starts the turn only at the first init", () => {
    const { events, results } = mapLines([init, { ...init, uuid: "u-2" }]);
    expect(ofType(events, "turn.started")).toHaveLength(1);
    expect(results.filter((r) => r.init !== undefined)).toHaveLength(1);
  });

  it("gives blocks item ids by message and position when no partial messages were streamed", () => {
    const { events, mapper } = mapLines([
      init,
      assistant([{ type: "thinking", thinking: "hmm", signature: "s" }]),
      assistant([{ type: "text", text: "one" }]),
      assistant([{ type: "text", text: "two" }], { message: { content: [{ type: "text", text: "three" }] } }),
    ]);
    expect(ofType(events, "reasoning.completed")).toEqual([
      { type: "reasoning.completed", itemId: "msg_a:0", summary: ["hmm"] },
    ]);
    expect(ofType(events, "text.completed").map((event) => event.itemId)).toEqual([
      "msg_a:1",
      expect.stringMatching(/^message-\d+:0$/),
    ]);
    expect(mapper.model).toBe("m-2");
    expect(mapper.finalMessage).toBe("three");
  });

  it("completes a tool whose result never comes when the result arrives, and on closeOpenTools", () => {
    const mapper = new ClaudeEventMapper();
    mapper.map(init);
    mapper.map(assistant([{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }]));
    expect(mapper.openToolCount).toBe(1);
    const closed = mapper.closeOpenTools();
    expect(closed).toEqual([
      expect.objectContaining({ type: "tool.completed", itemId: "t1", status: "unknown", exitCode: null }),
    ]);
    expect(mapper.closeOpenTools()).toEqual([]);
  });

  it("reports a tool_result for a tool it never saw start as an item, not a completion", () => {
    const { events } = mapLines([init, toolResult("ghost", "x")]);
    expect(events.at(-1)).toEqual({
      type: "item",
      phase: "completed",
      itemId: "ghost",
      itemType: "tool_result",
      item: expect.objectContaining({ tool_use_id: "ghost" }),
    });
    expectWellFormed(events);
  });

  it("titles tools by their input, falls back to the name, and maps unknown tools to other", () => {
    const { events } = mapLines([
      init,
      assistant([
        { type: "tool_use", id: "a", name: "WebFetch", input: { url: "http://x/y", prompt: "p" } },
        { type: "tool_use", id: "b", name: "WebSearch", input: { query: "q" } },
        { type: "tool_use", id: "c", name: "Skill", input: {} },
        { type: "tool_use", id: "d", name: "Bash", input: "not an object" },
        { type: "tool_use", id: "e", name: "mcp__srv__do__it", input: {} },
        { type: "tool_use", name: "NoId", input: {} },
      ]),
    ]);
    expect(ofType(events, "tool.started").map((event) => [event.tool, event.title])).toEqual([
      ["webFetch", "http://x/y"],
      ["webSearch", "q"],
      ["other", "Skill"],
      ["command", "Bash"],
      ["mcp", "srv.do__it"],
    ]);
    expect(events.at(-1)).toEqual(
      expect.objectContaining({ type: "item", itemType: "tool_use", itemId: null }),
    );
  });

  it("leaves a subagent's stream events native: deltas are the main agent's only", () => {
    const line = {
      type: "stream_event",
      event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "sub" } },
      parent_tool_use_id: "toolu_parent",
    };
    expect(mapLines([init, line]).events.at(-1)).toEqual({
      type: "native",
      method: "stream_event/content_block_delta",
      params: line,
    });
  });

  it("reports api_retry, informational and a stream error as warnings", () => {
    const { events } = mapLines([
      init,
      {
        type: "system",
        subtype: "api_retry",
        attempt: 1,
        max_retries: 10,
        retry_delay_ms: 1188,
        error_status: 429,
        error: "rate_limit",
      },
      { type: "system", subtype: "informational", content: "Auto mode can't check actions" },
      {
        type: "stream_event",
        event: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      },
    ]);
    expect(ofType(events, "warning").map((event) => [event.method, event.message])).toEqual([
      [
        "system/api_retry",
        "the model request failed with HTTP 429 (rate_limit); Claude Code retries in 1188 ms (attempt 1 of 10)",
      ],
      ["system/informational", "Auto mode can't check actions"],
      ["stream_event/error", "Overloaded"],
    ]);
  });

  it("sums the usage of several model requests until the result replaces it with Claude's own", () => {
    const start = (input: number) => ({
      type: "stream_event",
      event: {
        type: "message_start",
        message: { id: `m${input}`, usage: { input_tokens: input, cache_read_input_tokens: 1 } },
      },
    });
    const delta = (output: number) => ({
      type: "stream_event",
      event: { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: output } },
    });
    const mapper = new ClaudeEventMapper();
    for (const line of [init, start(10), delta(2), start(20), delta(3)]) mapper.map(line);
    expect(mapper.usage).toEqual({
      inputTokens: 32,
      cacheReadTokens: 2,
      cacheWriteTokens: 0,
      outputTokens: 5,
      reasoningTokens: 0,
      totalTokens: 37,
    });
    const ended = mapper.map(result({ usage: { input_tokens: 30, output_tokens: 5 }, total_cost_usd: 0.25 }));
    expect(ofType(ended.events, "usage")).toEqual([
      expect.objectContaining({
        usage: expect.objectContaining({ inputTokens: 30, costUsd: 0.25 }),
        last: expect.objectContaining({ inputTokens: 21 }),
      }),
    ]);
  });

  it("keeps the requests' summed usage when the result counts no tokens (a budget stop), with the result's cost", () => {
    // measured on 2.0.77, 2.1.112 and 2.1.332: `error_max_budget_usd` carries all-zero `usage` (only `modelUsage`
    // and `total_cost_usd` count the request that spent the budget)
    const zero = {
      input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 0,
    };
    const mapper = new ClaudeEventMapper();
    for (const line of [
      init,
      {
        type: "stream_event",
        event: { type: "message_start", message: { id: "m", usage: { input_tokens: 100000 } } },
      },
      { type: "stream_event", event: { type: "message_delta", delta: {}, usage: { output_tokens: 10 } } },
    ])
      mapper.map(line);
    const ended = mapper.map(
      result({ subtype: "error_max_budget_usd", is_error: true, usage: zero, total_cost_usd: 0.4002 }),
    );
    const counted = { inputTokens: 100000, outputTokens: 10, totalTokens: 100010, costUsd: 0.4002 };
    expect(ofType(ended.events, "usage")).toEqual([
      expect.objectContaining({ usage: expect.objectContaining(counted) }),
    ]);
    expect(mapper.usage).toEqual(expect.objectContaining(counted));
  });

  it("reports user text (a steer, an interrupt note) as a userMessage item beside the tool result", () => {
    const { events } = mapLines([
      init,
      assistant([{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "/w/a" } }]),
      {
        type: "user",
        uuid: "u-9",
        message: {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "t1",
              content: [{ type: "text", text: "a" }, { type: "image" }],
            },
            { type: "text", text: "The user sent a new message" },
          ],
        },
      },
    ]);
    expectWellFormed(events);
    expect(events.slice(-2).map((event) => event.type)).toEqual(["tool.completed", "item"]);
    expect(events.at(-1)).toEqual(expect.objectContaining({ itemType: "userMessage", itemId: "u-9" }));
    expect(ofType(events, "tool.completed")[0]?.item).toEqual(
      expect.objectContaining({ tool_result: expect.objectContaining({ tool_use_id: "t1" }) }),
    );
  });
});
