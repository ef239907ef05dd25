/** The event mapper keeps what is not the main agent's out of the owned turn: a subagent's lines, a streamed partial. */
import { describe, expect, it } from "vitest";
import { ClaudeEventMapper } from "../../src/claude/event-mapper.js";
import { mapLines, ofType } from "./claude-captures.js";

const init = { type: "system", subtype: "init", session_id: "s-1", uuid: "u-init", model: "m-1", cwd: "/w" };
const result = (extra: Record<string, unknown> = {}) => ({
  type: "result",
  subtype: "success",
  session_id: "s-1",
  ...extra,
});
const assistant = (content: unknown[]) => ({
  type: "assistant",
  message: { id: "msg_a", role: "assistant", model: "m-2", content },
  parent_tool_use_id: null,
});
const toolResult = (id: string, content: unknown) => ({
  type: "user",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] },
  parent_tool_use_id: null,
});

describe("ClaudeEventMapper ownership", () => {
  it("a subagent's text, model and checklist never become the owned turn's", () => {
    const sub = { parent_tool_use_id: "toolu_task" };
    const subMessage = (content: unknown[]) => ({
      type: "assistant",
      message: { id: "msg_sub", role: "assistant", model: "sub-model", content },
      ...sub,
    });
    const todos = { todos: [{ content: "sub step", status: "pending", activeForm: "doing" }] };
    const { events, mapper } = mapLines([
      init,
      assistant([{ type: "text", text: "main" }]),
      assistant([{ type: "tool_use", id: "toolu_task", name: "Task", input: { prompt: "go" } }]),
      subMessage([{ type: "text", text: "SUB" }]),
      subMessage([{ type: "tool_use", id: "toolu_todo", name: "TodoWrite", input: todos }]),
      { ...toolResult("toolu_todo", "ok"), ...sub },
      result({ subtype: "error_during_execution", is_error: true, result: undefined }),
    ]);
    expect(mapper.finalMessage).toBe("main");
    expect(mapper.model).toBe("m-2");
    expect(ofType(events, "plan.updated")).toEqual([]);
    expect(ofType(events, "tool.completed").find((e) => e.itemId === "toolu_todo")).toMatchObject({
      parentToolId: "toolu_task",
    });
  });

  it("keeps the init's model over a message_start's, and no partial message once its text completed", () => {
    const mapper = new ClaudeEventMapper();
    mapper.map(init);
    const start = { type: "message_start", message: { id: "msg_a", model: "other-model", usage: {} } };
    mapper.map({ type: "stream_event", event: start });
    mapper.map({
      type: "stream_event",
      event: { type: "content_block_start", index: 0, content_block: { type: "text" } },
    });
    const delta = { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "par" } };
    mapper.map({ type: "stream_event", event: delta });
    expect([mapper.model, mapper.partialMessage]).toEqual(["m-1", "par"]);
    mapper.map(assistant([{ type: "text", text: "part" }]));
    expect(mapper.partialMessage).toBeNull();
  });

  it("gives Claude's tool_use_result to no tool when one line carries several results", () => {
    const { events } = mapLines([
      init,
      assistant([
        { type: "tool_use", id: "a", name: "Task", input: { prompt: "x" } },
        { type: "tool_use", id: "b", name: "Task", input: { prompt: "y" } },
      ]),
      {
        type: "user",
        message: {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "a", content: "1" },
            { type: "tool_result", tool_use_id: "b", content: "2" },
          ],
        },
        parent_tool_use_id: null,
        tool_use_result: { status: "async_launched" },
      },
    ]);
    expect(ofType(events, "tool.completed").map((e) => e.status)).toEqual(["completed", "completed"]);
  });
});
