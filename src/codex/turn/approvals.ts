/**
 * Immediate, method-specific answers to Codex server requests. Pure: one request in, one reply out.
 * Rennet runs with approval policy `never` and full access; anything that still asks is answered at once so
 * that nothing ever waits for a person.
 */

import type { EventBody } from "../../harness/events.js";
import { isRecord } from "../../json-record.js";
import { JSON_RPC_CODES } from "../../jsonl/json-rpc-codes.js";
import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";

export const METHOD_NOT_FOUND = JSON_RPC_CODES.methodNotFound;
/** The code Rennet uses to refuse a request it understands but will not serve (dynamic tools, auth, attestation). */
export const REQUEST_REFUSED = -32000;

export type ServerRequestReply =
  { type: "result"; result: unknown } | { type: "error"; code: number; message: string };

/** True when an MCP elicitation is Codex asking to approve an MCP tool call (codex >= ~0.139). */
export function isMcpToolCallApproval(params: unknown): boolean {
  if (!isRecord(params)) return false;
  const meta = params._meta;
  return isRecord(meta) && meta.codex_approval_kind === "mcp_tool_call";
}

/** Decides the reply to one server→client request. */
export function answerServerRequest(method: string, params: unknown): ServerRequestReply {
  switch (method) {
    case "item/commandExecution/requestApproval":
    case "item/fileChange/requestApproval":
      return { type: "result", result: { decision: "accept" } };
    case "item/permissions/requestApproval":
      // An empty granted profile: nothing beyond what full access already allows; scope limited to this turn.
      return { type: "result", result: { permissions: {}, scope: "turn" } };
    case "execCommandApproval":
    case "applyPatchApproval":
      return { type: "result", result: { decision: "approved" } };
    case "item/tool/requestUserInput":
      return { type: "result", result: { answers: {} } };
    case "mcpServer/elicitation/request":
      return isMcpToolCallApproval(params)
        ? { type: "result", result: { action: "accept", content: null, _meta: null } }
        : { type: "result", result: { action: "decline", content: null, _meta: null } };
    case "item/tool/call":
      return {
        type: "error",
        code: REQUEST_REFUSED,
        message: "rennet registers no dynamic tools; this tool call cannot be served",
      };
    case "account/chatgptAuthTokens/refresh":
      return {
        type: "error",
        code: REQUEST_REFUSED,
        message: "rennet never handles Codex credentials; sign in with the codex CLI instead",
      };
    case "attestation/generate":
      return { type: "error", code: REQUEST_REFUSED, message: "rennet does not provide attestation" };
    default:
      return { type: "error", code: METHOD_NOT_FOUND, message: `method not found: ${method}` };
  }
}

/** The `request.answered` event for a server request and Rennet's reply. Pure. */
function answeredEvent(
  frame: { method: string; id: number | string; params: unknown },
  reply: ServerRequestReply,
): EventBody {
  return {
    type: "request.answered",
    method: frame.method,
    requestId: frame.id,
    params: frame.params,
    reply:
      reply.type === "result"
        ? { result: reply.result }
        : { error: { code: reply.code, message: reply.message } },
  };
}

/** Answers a server request on `conn` at once and returns the `request.answered` event that records it. */
export function answerRequest(
  conn: Pick<JsonRpcConnection, "respond" | "respondError">,
  frame: { method: string; id: number | string; params: unknown },
): EventBody {
  const reply = answerServerRequest(frame.method, frame.params);
  if (reply.type === "result") conn.respond(frame.id, reply.result);
  else conn.respondError(frame.id, reply.code, reply.message);
  return answeredEvent(frame, reply);
}
