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

/** What a `result` line says about usage and cost. */
interface ResultCounts {
  usage?: unknown;
  total_cost_usd?: unknown;
  modelUsage?: unknown;
  model_usage_since_last_result?: unknown;
}

function cost(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/** Per model `{inputTokens, outputTokens, cache…, costUSD}` summed: the tokens, and the cost (null if any lacks it). */
function modelTotals(value: unknown): { tokens: number; cost: number | null } | null {
  if (!isRecord(value)) return null;
  let tokens = 0;
  let sum: number | null = 0;
  for (const entry of Object.values(value)) {
    const model = asRecord(entry);
    tokens += ["inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens"]
      .map((key) => count(model, key))
      .reduce((a, b) => a + b, 0);
    const each = cost(model.costUSD);
    sum = sum === null || each === null ? null : sum + each;
  }
  return { tokens, cost: sum };
}

/**
 * The turn's own cost. A session that resumes a thread starts, on 2.0.77 and 2.1.332, from the cost and
 * `modelUsage` the thread had (its `usage` stays the turn's): there the turn's cost is 2.1.332's
 * `model_usage_since_last_result`, and none where only the thread's total is reported (its `modelUsage` counts
 * more tokens than the turn's `usage`). 2.1.112 restores nothing: its total is the turn's.
 */
export function turnCost(result: ResultCounts, resumed: boolean): number | null {
  const total = cost(result.total_cost_usd);
  if (!resumed || total === null) return total;
  const since = modelTotals(result.model_usage_since_last_result);
  if (since !== null) return since.cost;
  const thread = modelTotals(result.modelUsage);
  return thread !== null && thread.tokens > usageFromMessages(result.usage).totalTokens ? null : total;
}

/**
 * The turn's usage from a `result` line (`usage`, summed by Claude over the turn's requests) and its cost
 * (`resumed`: the session resumed a thread). A `result` that counts no tokens while the turn's requests did
 * (`error_max_budget_usd` carries an all-zero `usage`) gives `summed`, the requests' usage as their streams
 * reported it, with the result's cost.
 */
export function resultUsage(result: ResultCounts, summed: Usage, resumed = false): Usage {
  const reported = usageFromMessages(result.usage);
  const usage = reported.totalTokens === 0 && summed.totalTokens > 0 ? summed : reported;
  const turn = turnCost(result, resumed);
  return turn === null ? usage : { ...usage, costUsd: turn };
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
