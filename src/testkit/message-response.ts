import type { ResponsePlan, RecordedRequest } from "./model-response-plan.js";
import type { ModelUsage, ResponseStreamEvent } from "./responses-stream-events.js";
import { assistantMessageEvents, responseCompleted, responseCreated } from "./responses-stream-events.js";
import { RennetError } from "../errors.js";

/** Splits `message` into deltas: by words (default), into `count` near-equal pieces, or as given. */
export function splitIntoChunks(message: string, chunks: number | readonly string[] | undefined): string[] {
  if (chunks === undefined) {
    const words = message.match(/\s*\S+\s*/gu) ?? [];
    return words.length === 0 ? [message] : words;
  }
  if (typeof chunks !== "number") {
    if (chunks.join("") !== message)
      throw new RennetError(
        "SCENARIO_INVALID",
        "text(message, {chunks}): the chunks must join to the message",
      );
    return [...chunks];
  }
  if (!Number.isInteger(chunks) || chunks < 1)
    throw new RennetError("SCENARIO_INVALID", `text(message, {chunks}): ${chunks} is not a positive integer`);
  const codePoints = Array.from(message);
  const count = Math.min(chunks, Math.max(codePoints.length, 1));
  const size = Math.ceil(codePoints.length / count);
  const pieces: string[] = [];
  for (let start = 0; start < codePoints.length; start += size)
    pieces.push(codePoints.slice(start, start + size).join(""));
  return pieces.length === 0 ? [""] : pieces;
}

/**
 * One complete model response: `response.created`, the `before` events (e.g. a reasoning item), the assistant
 * message streamed as `chunks`, then `response.completed` with `usage`.
 */
export function messageResponse(
  request: RecordedRequest,
  response: {
    before?: readonly ResponseStreamEvent[];
    chunks: readonly string[];
    usage: ModelUsage | null;
    delayMs?: number;
  },
): ResponsePlan {
  const responseId = `resp_${request.index}`;
  return {
    type: "stream",
    events: [
      responseCreated(responseId),
      ...(response.before ?? []),
      ...assistantMessageEvents(`msg_${request.index}`, response.chunks),
      responseCompleted(responseId, response.usage),
    ],
    end: "close",
    ...(response.delayMs !== undefined ? { delayMs: response.delayMs } : {}),
  };
}

/** `usage` as given (null: none reported), or `fallback` when it was left out. */
export function usageOrDefault(
  usage: ModelUsage | null | undefined,
  fallback: ModelUsage,
): ModelUsage | null {
  return usage === undefined ? fallback : usage;
}
