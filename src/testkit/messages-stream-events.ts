/**
 * Builders for the server-sent events of the Anthropic Messages API (`stream: true`), in the subset Claude Code
 * reads: `message_start`, `content_block_start` / `_delta` / `_stop`, `message_delta`, `message_stop`. Pure data:
 * nothing here touches a socket. Every event's `type` is also its SSE `event:` field.
 */
import type { ResponseStreamEvent } from "./responses-stream-events.js";

/** One Messages API stream event (the same `{type, …}` shape the Responses builders use). */
export type MessagesStreamEvent = ResponseStreamEvent;

/** Token usage of one model request, in the Messages API's names. */
export interface MessagesUsage {
  /** Input tokens that were neither read from nor written to the cache. */
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

/** Builds a usage; the cache counts default to 0. */
export function messagesUsage(
  input: number,
  output: number,
  cache: { read?: number; write?: number } = {},
): MessagesUsage {
  return {
    input_tokens: input,
    cache_creation_input_tokens: cache.write ?? 0,
    cache_read_input_tokens: cache.read ?? 0,
    output_tokens: output,
  };
}

/** One content block of an answer. */
export type AnswerBlock =
  /** Text, streamed as one `text_delta` per chunk. */
  | { type: "text"; chunks: readonly string[] }
  /** A thinking block, streamed as one `thinking_delta`, then its signature. */
  | { type: "thinking"; thinking: string }
  /** A tool call, its input streamed as `input_json_delta` in two halves. */
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** What one answer says. */
export interface Answer {
  messageId: string;
  model: string;
  blocks: readonly AnswerBlock[];
  usage: MessagesUsage;
  /** Default: `tool_use` when a block calls a tool, else `end_turn`. */
  stopReason?: string;
}

/** `message_start`: the message with no content yet; usage counts input and one output token so far. */
export function messageStart(messageId: string, model: string, usage: MessagesUsage): MessagesStreamEvent {
  return {
    type: "message_start",
    message: {
      id: messageId,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  };
}

/** The start, deltas and stop of one content block at `index`. */
export function blockEvents(index: number, block: AnswerBlock): MessagesStreamEvent[] {
  const stop = { type: "content_block_stop", index };
  switch (block.type) {
    case "text":
      return [
        { type: "content_block_start", index, content_block: { type: "text", text: "" } },
        ...block.chunks.map((text) => ({
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text },
        })),
        stop,
      ];
    case "thinking":
      return [
        {
          type: "content_block_start",
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        },
        { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: block.thinking } },
        { type: "content_block_delta", index, delta: { type: "signature_delta", signature: "bG9vcGJhY2s=" } },
        stop,
      ];
    case "tool_use": {
      const json = JSON.stringify(block.input);
      const half = Math.floor(json.length / 2);
      return [
        {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        },
        {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: json.slice(0, half) },
        },
        {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: json.slice(half) },
        },
        stop,
      ];
    }
  }
}

/** Every event of one answer, `message_start` to `message_stop`. */
export function answerEvents(answer: Answer): MessagesStreamEvent[] {
  const stopReason =
    answer.stopReason ?? (answer.blocks.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn");
  return [
    messageStart(answer.messageId, answer.model, answer.usage),
    ...answer.blocks.flatMap((block, index) => blockEvents(index, block)),
    {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: answer.usage.output_tokens },
    },
    { type: "message_stop" },
  ];
}

/** The JSON body of an Anthropic API error: `{type:"error", error:{type, message}}`. */
export function anthropicErrorBody(type: string, message: string): Record<string, unknown> {
  return { type: "error", error: { type, message } };
}

/**
 * The whole message a stream of events describes, for a client that asked without `stream: true`: content
 * blocks assembled from their deltas (a tool's input parsed from its JSON), stop reason and usage.
 */
export function messageOfEvents(events: readonly MessagesStreamEvent[]): Record<string, unknown> {
  let message: Record<string, unknown> = { type: "message", role: "assistant", content: [] };
  const blocks: Record<string, unknown>[] = [];
  const json = new Map<number, string>();
  for (const event of events) {
    const index = typeof event.index === "number" ? event.index : 0;
    if (event.type === "message_start") message = { ...(event.message as Record<string, unknown>) };
    if (event.type === "content_block_start")
      blocks[index] = { ...(event.content_block as Record<string, unknown>) };
    if (event.type === "content_block_delta") {
      const delta = event.delta as Record<string, unknown>;
      const block = blocks[index] ?? {};
      if (delta.type === "text_delta") block.text = `${String(block.text ?? "")}${String(delta.text)}`;
      if (delta.type === "thinking_delta")
        block.thinking = `${String(block.thinking ?? "")}${String(delta.thinking)}`;
      if (delta.type === "input_json_delta")
        json.set(index, `${json.get(index) ?? ""}${String(delta.partial_json)}`);
    }
    if (event.type === "message_delta") {
      message.stop_reason = (event.delta as Record<string, unknown>).stop_reason;
      message.usage = {
        ...(message.usage as Record<string, unknown>),
        ...(event.usage as Record<string, unknown>),
      };
    }
  }
  for (const [index, text] of json) {
    const block = blocks[index];
    if (block) block.input = text === "" ? {} : (JSON.parse(text) as unknown);
  }
  return { ...message, content: blocks.filter((block) => block !== undefined) };
}
