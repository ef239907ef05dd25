/**
 * Builders for the server-sent events of the OpenAI Responses API, in the subset codex 0.171.0 reads.
 * Pure data: nothing here touches a socket.
 */

/** One server-sent event: `type` is written both as the SSE `event:` field and inside the JSON data. */
export interface ResponseStreamEvent {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** Token usage of one model request, in the names codex uses for `thread/tokenUsage/updated`. */
export interface ModelUsage {
  /** Includes the cached tokens. */
  inputTokens: number;
  cachedInputTokens: number;
  /** Includes the reasoning tokens. */
  outputTokens: number;
  reasoningOutputTokens: number;
  totalTokens: number;
}

/** Builds a consistent usage: `totalTokens = inputTokens + outputTokens`. */
export function modelUsage(
  inputTokens: number,
  outputTokens: number,
  detail: { cachedInputTokens?: number; reasoningOutputTokens?: number } = {},
): ModelUsage {
  return {
    inputTokens,
    cachedInputTokens: detail.cachedInputTokens ?? 0,
    outputTokens,
    reasoningOutputTokens: detail.reasoningOutputTokens ?? 0,
    totalTokens: inputTokens + outputTokens,
  };
}

/** The Responses API wire shape of a usage. */
export function wireUsage(usage: ModelUsage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningOutputTokens },
    total_tokens: usage.totalTokens,
  };
}

/** Serializes one event in SSE framing: `event: TYPE\ndata: JSON\n\n`. */
export function encodeServerSentEvent(event: ResponseStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function responseCreated(responseId: string): ResponseStreamEvent {
  return { type: "response.created", response: { id: responseId } };
}

export function responseCompleted(responseId: string, usage: ModelUsage | null): ResponseStreamEvent {
  return {
    type: "response.completed",
    response: usage === null ? { id: responseId } : { id: responseId, usage: wireUsage(usage) },
  };
}

/** A `response.failed` event: the model reports a failure inside a 200 stream. */
export function responseFailed(
  responseId: string,
  error: { code: string; message: string },
): ResponseStreamEvent {
  return { type: "response.failed", response: { id: responseId, error } };
}

/** The events of one streamed assistant message: added, one delta per chunk, done. */
export function assistantMessageEvents(itemId: string, chunks: readonly string[]): ResponseStreamEvent[] {
  const text = chunks.join("");
  return [
    {
      type: "response.output_item.added",
      item: { type: "message", role: "assistant", id: itemId, content: [] },
    },
    ...chunks.map((delta) => ({ type: "response.output_text.delta", item_id: itemId, delta })),
    {
      type: "response.output_item.done",
      item: { type: "message", role: "assistant", id: itemId, content: [{ type: "output_text", text }] },
    },
  ];
}

/** The events of one reasoning item whose summary has one part per entry of `parts`, each streamed in one delta. */
export function reasoningEvents(itemId: string, parts: readonly string[]): ResponseStreamEvent[] {
  const events: ResponseStreamEvent[] = [
    { type: "response.output_item.added", item: { type: "reasoning", id: itemId, summary: [] } },
  ];
  parts.forEach((text, summaryIndex) => {
    events.push({
      type: "response.reasoning_summary_part.added",
      item_id: itemId,
      summary_index: summaryIndex,
    });
    events.push({
      type: "response.reasoning_summary_text.delta",
      item_id: itemId,
      delta: text,
      summary_index: summaryIndex,
    });
  });
  events.push({
    type: "response.output_item.done",
    item: { type: "reasoning", id: itemId, summary: parts.map((text) => ({ type: "summary_text", text })) },
  });
  return events;
}

/** A completed `function_call` output item (codex registers `exec_command`, not `shell`, in 0.171.0). */
export function functionCallDone(
  itemId: string,
  callId: string,
  name: string,
  args: Record<string, unknown>,
): ResponseStreamEvent {
  return {
    type: "response.output_item.done",
    item: { type: "function_call", id: itemId, call_id: callId, name, arguments: JSON.stringify(args) },
  };
}

/** A completed `custom_tool_call` output item: a freeform tool (e.g. `apply_patch`) called with raw `input`. */
export function customToolCallDone(
  itemId: string,
  callId: string,
  name: string,
  input: string,
): ResponseStreamEvent {
  return {
    type: "response.output_item.done",
    item: { type: "custom_tool_call", id: itemId, call_id: callId, name, input },
  };
}

/** The JSON body of an OpenAI-style HTTP error. */
export function openAiErrorBody(
  message: string,
  type = "server_error",
  code: string | null = null,
): { error: { message: string; type: string; param: null; code: string | null } } {
  return { error: { message, type, param: null, code } };
}
