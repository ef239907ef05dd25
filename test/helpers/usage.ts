import type { Usage } from "../../src/harness/event-base.js";

/** A turn's usage: the given counts, every other count 0, `totalTokens` input plus output unless given. */
export function usage(counts: Partial<Usage> = {}): Usage {
  const inputTokens = counts.inputTokens ?? 0;
  const outputTokens = counts.outputTokens ?? 0;
  return {
    inputTokens,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens,
    reasoningTokens: 0,
    totalTokens: inputTokens + outputTokens,
    ...counts,
  };
}
