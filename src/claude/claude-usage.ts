/**
 * Token usage in the Messages API's shape (`input_tokens`, `cache_creation_input_tokens`,
 * `cache_read_input_tokens`, `output_tokens`, `output_tokens_details.thinking_tokens`) as a harness `Usage`.
 * The API counts input without the cache; `Usage.inputTokens` includes both cache reads and cache writes. Read
 * tolerantly: a missing or non-finite number counts as 0. Pure.
 */
import type { Usage } from "../harness/events.js";
import { asRecord, isRecord } from "../json-record.js";

function count(record: Record<string, unknown>, key: string): number {
  const value = record[key];
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** One Messages API usage object as a `Usage` (without cost). */
export function usageFromMessages(value: unknown): Usage {
  const usage = asRecord(value);
  const cacheRead = count(usage, "cache_read_input_tokens");
  const cacheWrite = count(usage, "cache_creation_input_tokens");
  const input = count(usage, "input_tokens") + cacheRead + cacheWrite;
  const output = count(usage, "output_tokens");
  return {
    inputTokens: input,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: output,
    reasoningTokens: count(asRecord(usage.output_tokens_details), "thinking_tokens"),
    totalTokens: input + output,
  };
}

/** A `message_start` usage updated by a later `message_delta` usage: the delta's fields win where present. */
export function mergeMessageUsage(start: unknown, delta: unknown): Record<string, unknown> {
  return { ...asRecord(start), ...asRecord(delta) };
}

/** `a + b` per token field (no cost). */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

/**
 * The turn's usage from a `result` line (`usage`, summed by Claude over the turn's requests) and its cost. A
 * `result` that counts no tokens while the turn's requests did (`error_max_budget_usd` carries an all-zero
 * `usage`) gives `summed`, the requests' usage as their streams reported it, with the result's cost.
 */
export function resultUsage(result: { usage?: unknown; total_cost_usd?: unknown }, summed: Usage): Usage {
  const reported = usageFromMessages(result.usage);
  const usage = reported.totalTokens === 0 && summed.totalTokens > 0 ? summed : reported;
  const cost = result.total_cost_usd;
  return typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? { ...usage, costUsd: cost } : usage;
}

/** The context window of the turn's model from a `result`'s `modelUsage` (`model`'s entry, else the only one). */
export function contextWindowOf(modelUsage: unknown, model: string | null): number | null {
  if (!isRecord(modelUsage)) return null;
  const entries = Object.entries(modelUsage);
  const entry =
    (model !== null ? entries.find(([name]) => name === model)?.[1] : undefined) ??
    (entries.length === 1 ? entries[0]?.[1] : undefined);
  const window = isRecord(entry) ? entry.contextWindow : undefined;
  return typeof window === "number" && Number.isFinite(window) && window > 0 ? window : null;
}
