import { describe, expect, it } from "vitest";
import { defaultControlAnswer } from "../../src/claude/control-answers.js";
import {
  controlError,
  controlSuccess,
  endSessionRequest,
  imageMediaTypeOf,
  interruptRequest,
  userMessage,
} from "../../src/claude/stdin-messages.js";
import type { ClaudeControlRequestLine } from "../../src/claude/stream-json-lines.js";

describe("stdin messages", () => {
  it("writes the user message the way the agent SDK does, images before the text", () => {
    expect(userMessage({ text: "hello" })).toEqual({
      type: "user",
      session_id: "",
      message: { role: "user", content: [{ type: "text", text: "hello" }] },
      parent_tool_use_id: null,
    });
    expect(
      userMessage({
        text: "what is this?",
        images: [{ mediaType: "image/png", base64: "iVBORw0KGgo=" }],
        uuid: "u-1",
      }),
    ).toEqual({
      type: "user",
      session_id: "",
      message: {
        role: "user",
        content: [
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
          { type: "text", text: "what is this?" },
        ],
      },
      parent_tool_use_id: null,
      uuid: "u-1",
    });
  });

  it("serializes to one line whatever the text holds", () => {
    const line = JSON.stringify(userMessage({ text: "line one\nline two\u2028\u0000" }));
    expect(line.includes("\n")).toBe(false);
    expect((JSON.parse(line) as { message: { content: [{ text: string }] } }).message.content[0].text).toBe(
      "line one\nline two\u2028\u0000",
    );
  });

  it("writes the control requests and answers in Claude's envelope", () => {
    expect(interruptRequest("int-1")).toEqual({
      type: "control_request",
      request_id: "int-1",
      request: { subtype: "interrupt" },
    });
    expect(interruptRequest("int-2", { cancelQueued: true }).request).toEqual({
      subtype: "interrupt",
      cancel_queued: true,
    });
    expect(endSessionRequest("end-1")).toEqual({
      type: "control_request",
      request_id: "end-1",
      request: { subtype: "end_session", reason: "rennet: turn ended" },
    });
    expect(controlSuccess("r", { a: 1 })).toEqual({
      type: "control_response",
      response: { subtype: "success", request_id: "r", response: { a: 1 } },
    });
    expect(controlError("r", "no")).toEqual({
      type: "control_response",
      response: { subtype: "error", request_id: "r", error: "no" },
    });
  });

  it("knows the image types the Messages API takes, by extension", () => {
    expect(imageMediaTypeOf("a.PNG")).toBe("image/png");
    expect(imageMediaTypeOf("/x/y.jpeg")).toBe("image/jpeg");
    expect(imageMediaTypeOf("y.jpg")).toBe("image/jpeg");
    expect(imageMediaTypeOf("y.webp")).toBe("image/webp");
    expect(imageMediaTypeOf("y.gif")).toBe("image/gif");
    expect(imageMediaTypeOf("y.bmp")).toBeNull();
    expect(imageMediaTypeOf("png")).toBeNull();
    expect(imageMediaTypeOf("y.toString")).toBeNull();
  });
});

describe("defaultControlAnswer", () => {
  const request = (body: Record<string, unknown>): ClaudeControlRequestLine => ({
    type: "control_request",
    request_id: "req-1",
    request: body as ClaudeControlRequestLine["request"],
  });

  it("allows a tool with its input unchanged and writes no permission update", () => {
    const body = {
      subtype: "can_use_tool",
      tool_name: "Bash",
      input: { command: "echo made > f" },
      permission_suggestions: [{ type: "addRules", destination: "localSettings" }],
      tool_use_id: "toolu_1",
    };
    const answer = defaultControlAnswer(request(body));
    expect(answer.line).toEqual({
      type: "control_response",
      response: {
        subtype: "success",
        request_id: "req-1",
        response: { behavior: "allow", updatedInput: { command: "echo made > f" } },
      },
    });
    expect(answer.answered).toEqual({
      type: "request.answered",
      method: "control_request/can_use_tool",
      requestId: "req-1",
      params: body,
      reply: { result: { behavior: "allow", updatedInput: { command: "echo made > f" } } },
    });
  });

  it("declines elicitations, gives hooks no decision and refuses MCP messages for servers Rennet does not run", () => {
    expect(defaultControlAnswer(request({ subtype: "elicitation" })).answered).toEqual(
      expect.objectContaining({ reply: { result: { action: "decline" } } }),
    );
    expect(defaultControlAnswer(request({ subtype: "hook_callback" })).answered).toEqual(
      expect.objectContaining({ reply: { result: {} } }),
    );
    const call = defaultControlAnswer(
      request({
        subtype: "mcp_message",
        server_name: "app",
        message: { jsonrpc: "2.0", id: 3, method: "tools/list" },
      }),
    );
    expect(call.answered).toEqual(
      expect.objectContaining({
        reply: {
          result: {
            mcp_response: {
              jsonrpc: "2.0",
              id: 3,
              error: { code: -32601, message: 'rennet: no in-process MCP server named "app"' },
            },
          },
        },
      }),
    );
    const notification = defaultControlAnswer(
      request({
        subtype: "mcp_message",
        server_name: "app",
        message: { jsonrpc: "2.0", method: "notifications/initialized" },
      }),
    );
    expect(notification.answered).toEqual(
      expect.objectContaining({ reply: { result: { mcp_response: { jsonrpc: "2.0", id: 0, result: {} } } } }),
    );
  });

  it("answers an unknown subtype with a control error, as Claude itself does", () => {
    const answer = defaultControlAnswer(request({ subtype: "no_such_subtype" }));
    expect(answer.line).toEqual({
      type: "control_response",
      response: {
        subtype: "error",
        request_id: "req-1",
        error: "Unsupported control request subtype: no_such_subtype",
      },
    });
    expect(answer.answered).toEqual(
      expect.objectContaining({
        reply: { error: { code: -32601, message: "Unsupported control request subtype: no_such_subtype" } },
      }),
    );
  });
});
