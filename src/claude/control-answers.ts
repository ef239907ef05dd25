/**
 * Rennet's default answers to the control requests Claude Code sends to the client, so that a turn never waits
 * for a person (and never waits at all: a request left unanswered stalls Claude, e.g. 60 s for `mcp_message`).
 * Each answer comes with the `request.answered` event that reports it. Pure.
 *
 * | request | answer |
 * |---|---|
 * | `can_use_tool` | allow, with the tool's input unchanged (no `updatedPermissions`: nothing is written to settings) |
 * | `elicitation` | `{action:"decline"}` |
 * | `mcp_message` | a JSON-RPC error (`-32601`): Rennet runs no in-process MCP server by default |
 * | `hook_callback` | `{}` (no decision: Rennet registers no hooks) |
 * | any other | a control error: unsupported request |
 */
import type { EventBody } from "../harness/events.js";
import { isRecord } from "../json-record.js";
import type { ClaudeControlRequestLine } from "./stream-json-lines.js";
import { controlError, controlSuccess } from "./stdin-messages.js";

/** JSON-RPC's "method not found", used for every refusal so that `request.answered` has one numeric code. */
const METHOD_NOT_FOUND = -32601;

/** The line to write to Claude's stdin and the event that reports it. */
export interface ControlAnswer {
  line: Record<string, unknown>;
  answered: EventBody;
}

/** The default answer to one control request. */
export function defaultControlAnswer(request: ClaudeControlRequestLine): ControlAnswer {
  const body = request.request;
  const id = request.request_id;
  const method = `control_request/${body.subtype}`;
  const success = (result: unknown): ControlAnswer => ({
    line: controlSuccess(id, result),
    answered: { type: "request.answered", method, requestId: id, params: body, reply: { result } },
  });
  switch (body.subtype) {
    case "can_use_tool":
      return success({ behavior: "allow", updatedInput: isRecord(body.input) ? body.input : {} });
    case "elicitation":
      return success({ action: "decline" });
    case "hook_callback":
      return success({});
    case "mcp_message":
      return success({ mcp_response: mcpRefusal(body.message, body.server_name) });
    default: {
      const message = `Unsupported control request subtype: ${body.subtype}`;
      return {
        line: controlError(id, message),
        answered: {
          type: "request.answered",
          method,
          requestId: id,
          params: body,
          reply: { error: { code: METHOD_NOT_FOUND, message } },
        },
      };
    }
  }
}

/** A JSON-RPC answer refusing an MCP message for a server Rennet does not run (a notification gets `{}`). */
function mcpRefusal(message: unknown, server: unknown): Record<string, unknown> {
  const id = isRecord(message) ? message.id : undefined;
  if (id === undefined || id === null) return { jsonrpc: "2.0", id: 0, result: {} };
  const name = typeof server === "string" ? server : "?";
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: METHOD_NOT_FOUND,
      message: `rennet: no in-process MCP server named ${JSON.stringify(name)}`,
    },
  };
}
