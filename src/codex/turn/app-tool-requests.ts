/**
 * Codex's transport of app tools: the tools offered in `thread/start.dynamicTools`, and each `item/tool/call`
 * request served by the session's {@link AppToolCalls} and answered with a `DynamicToolCallResponse`
 * (`{contentItems, success}`). Measured on 0.100–0.171: `callId` is also the id of codex's own
 * `dynamicToolCall` item (0.120 and newer), and the model receives the content items' text as the call's output
 * (`success` does not reach it, so an error's text says it is one).
 */
import type { AppToolContent, EventBody } from "../../harness/events.js";
import { isRecord } from "../../json-record.js";
import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import type { AppToolAnswer, AppToolCalls } from "../../tools/app-tool-calls.js";
import type { ToolSet } from "../../tools/tool-set.js";
import { dynamicToolSpec } from "../protocol/protocol-requests.js";
import { REQUEST_REFUSED } from "./approvals.js";

/** The server request that calls an app tool. */
export const TOOL_CALL_METHOD = "item/tool/call";

/** `thread/start.dynamicTools` for a tool set. Pure. */
export function dynamicToolSpecs(tools: ToolSet | null): Record<string, unknown>[] | undefined {
  return tools === null ? undefined : [...tools.values()].map(dynamicToolSpec);
}

/** Content parts as `DynamicToolCallOutputContentItem`s. Pure. */
function contentItems(content: readonly AppToolContent[]): Record<string, unknown>[] {
  return content.map((part) =>
    part.type === "text"
      ? { type: "inputText", text: part.text }
      : { type: "inputImage", imageUrl: part.url },
  );
}

/** What an answer (or a call aborted by the session's end) is sent as. Pure. */
function responseOf(answer: AppToolAnswer | null): Record<string, unknown> {
  if (answer === null)
    return { contentItems: [{ type: "inputText", text: "Error: the session ended" }], success: false };
  return { contentItems: contentItems(answer.content), success: !answer.isError };
}

/**
 * Serves one `item/tool/call`: runs it (its `tool.*` events are emitted by `calls`), answers codex, then
 * emits the `request.answered` that records the answer. A request without `callId` or `tool` is answered
 * with a JSON-RPC error at once. `emit` is the session's (it drops events once the session has ended).
 */
export function serveToolCall(
  conn: Pick<JsonRpcConnection, "respond" | "respondError">,
  frame: { method: string; id: number | string; params: unknown },
  calls: AppToolCalls,
  emit: (body: EventBody) => void,
): void {
  const params = isRecord(frame.params) ? frame.params : {};
  const { callId, tool } = params;
  if (typeof callId !== "string" || typeof tool !== "string") {
    const message = "item/tool/call without callId or tool";
    conn.respondError(frame.id, REQUEST_REFUSED, message);
    emit(answered(frame, { error: { code: REQUEST_REFUSED, message } }));
    return;
  }
  const request = {
    callId,
    name: tool,
    arguments: params.arguments ?? null,
    item: params,
    method: frame.method,
  };
  void calls.run(request).then((answer) => {
    const result = responseOf(answer);
    conn.respond(frame.id, result);
    emit(answered(frame, { result }));
  });
}

function answered(
  frame: { method: string; id: number | string; params: unknown },
  reply: { result: unknown } | { error: { code: number; message: string } },
): EventBody {
  return { type: "request.answered", method: frame.method, requestId: frame.id, params: frame.params, reply };
}
