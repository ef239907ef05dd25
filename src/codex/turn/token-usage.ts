import type { Usage } from "../../harness/events.js";
import { asRecord } from "../../json-record.js";

/** Codex's `TokenUsageBreakdown`, read tolerantly (a missing, negative or non-finite number counts as 0). */
export function usageFromBreakdown(value: unknown): Usage {
  const b = asRecord(value);
  const n = (key: string): number => {
    const v = b[key];
    return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0;
  };
  return {
    inputTokens: n("inputTokens"),
    cacheReadTokens: n("cachedInputTokens"),
    cacheWriteTokens: n("cacheWriteInputTokens"),
    outputTokens: n("outputTokens"),
    reasoningTokens: n("reasoningOutputTokens"),
    totalTokens: n("totalTokens"),
  };
}

/** `a - b` per field, never below zero. */
export function subtractUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: Math.max(0, a.inputTokens - b.inputTokens),
    cacheReadTokens: Math.max(0, a.cacheReadTokens - b.cacheReadTokens),
    cacheWriteTokens: Math.max(0, a.cacheWriteTokens - b.cacheWriteTokens),
    outputTokens: Math.max(0, a.outputTokens - b.outputTokens),
    reasoningTokens: Math.max(0, a.reasoningTokens - b.reasoningTokens),
    totalTokens: Math.max(0, a.totalTokens - b.totalTokens),
  };
}
