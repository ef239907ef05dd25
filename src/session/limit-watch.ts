import type { TurnLimits } from "../harness/approvals.js";
import type { EventBody, TurnLimit } from "../harness/events.js";

/**
 * Watches a turn's events for the limits of {@link TurnLimits} that events can show: tokens (`usage`, the
 * whole turn so far), tool calls (`tool.started`) and cost (`usage.costUsd`, where the harness reports one).
 * The duration limit is a timer of the runner. Reports the first limit exceeded, once. Pure state, no I/O.
 */
export class LimitWatch {
  readonly #limits: TurnLimits;
  #toolCalls = 0;
  #hit = false;

  constructor(limits: TurnLimits) {
    this.#limits = limits;
  }

  /** The limit `body` takes the turn past, the first time one is; null otherwise. */
  observe(body: EventBody): TurnLimit | null {
    if (this.#hit) return null;
    const limit = this.#check(body);
    if (limit) this.#hit = true;
    return limit;
  }

  #check(body: EventBody): TurnLimit | null {
    const { maxTokens, maxToolCalls, maxCostUsd } = this.#limits;
    if (body.type === "tool.started" && maxToolCalls !== undefined) {
      this.#toolCalls += 1;
      if (this.#toolCalls > maxToolCalls)
        return { name: "maxToolCalls", value: maxToolCalls, reached: this.#toolCalls };
    }
    if (body.type === "usage") {
      if (maxTokens !== undefined && body.usage.totalTokens > maxTokens)
        return { name: "maxTokens", value: maxTokens, reached: body.usage.totalTokens };
      const cost = body.usage.costUsd;
      if (maxCostUsd !== undefined && cost !== undefined && cost > maxCostUsd)
        return { name: "maxCostUsd", value: maxCostUsd, reached: cost };
    }
    return null;
  }
}

/** The limit reached when the duration limit's timer fires. Pure. */
export function durationLimit(maxDurationMs: number, elapsedMs: number): TurnLimit {
  return { name: "maxDurationMs", value: maxDurationMs, reached: Math.round(elapsedMs) };
}
