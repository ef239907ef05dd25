import { RennetError } from "../errors.js";
import type { TurnLimits } from "../harness/approvals.js";
import type { EventBody, TurnLimit } from "../harness/events.js";
import type { TimerSet } from "./timer-set.js";

/**
 * Watches a turn's events for the limits of {@link TurnLimits} that events can show: tokens (`usage`, the
 * whole turn so far), tool calls (`tool.started`) and cost (`usage.costUsd`, where the harness reports one).
 * The duration limit is a timer of the runner. Reports the first limit exceeded, once. Pure state, no I/O.
 */
class LimitWatch {
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

/**
 * A session's limits: {@link LimitWatch} over its events and the duration timer. `stop` ends the turn at a limit
 * and says whether it did (a turn already ending keeps its own end); the limit it stopped at is {@link hit}.
 */
export class TurnLimiter {
  readonly #watch: LimitWatch | null;
  readonly #maxDurationMs: number | undefined;
  readonly #stop: (limit: TurnLimit) => boolean;
  #hit: TurnLimit | null = null;

  constructor(limits: TurnLimits | undefined, stop: (limit: TurnLimit) => boolean) {
    this.#watch = limits ? new LimitWatch(limits) : null;
    this.#maxDurationMs = limits?.maxDurationMs;
    this.#stop = stop;
  }

  /** The limit that stopped the turn, if one did. */
  get hit(): TurnLimit | null {
    return this.#hit;
  }

  /** Starts the duration limit's timer on `timers` (cleared with them), counted from `startedAt` (`performance.now()`). */
  start(timers: TimerSet, startedAt: number = performance.now()): void {
    const maxMs = this.#maxDurationMs;
    if (maxMs === undefined) return;
    // whole milliseconds, rounded up: a timer never fires before the limit is reached
    timers.set(Math.max(0, Math.ceil(maxMs - (performance.now() - startedAt))), () =>
      this.#reach({
        name: "maxDurationMs",
        value: maxMs,
        reached: Math.round(performance.now() - startedAt),
      }),
    );
  }

  /** Checks one event of the turn against the limits. */
  observe(body: EventBody): void {
    const limit = this.#watch?.observe(body);
    if (limit) this.#reach(limit);
  }

  /** Records the limit first (a stop may end the session at once, reading it), unless the turn kept its end. */
  #reach(limit: TurnLimit): void {
    if (this.#hit !== null) return;
    this.#hit = limit;
    if (!this.#stop(limit)) this.#hit = null;
  }
}

/**
 * The reason a turn stopped at `limit` is cancelled with, which the signals of the handlers still running are
 * aborted with: a `RennetError` `LIMIT_REACHED` naming the limit, its value and what the turn had reached.
 */
export function limitReached(limit: TurnLimit): RennetError<"LIMIT_REACHED"> {
  const value = limit.value === null ? "" : ` ${limit.value}`;
  const reached = limit.reached === null ? "" : ` (reached ${limit.reached})`;
  return new RennetError("LIMIT_REACHED", `the turn stopped at its limit ${limit.name}${value}${reached}`, {
    details: { limit: { ...limit } },
  });
}
