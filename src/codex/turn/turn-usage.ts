import type { Usage } from "../../harness/events.js";
import { subtractUsage } from "./token-usage.js";

/**
 * The owned turn's token usage, from codex's thread-wide figures. Each `thread/tokenUsage/updated` carries the
 * thread's running `total` and the `last` request's usage; the turn's usage is the total less the thread's usage
 * before the turn (the baseline). The baseline is, in order of what is known:
 * - the thread's usage sent before the owned turn exists (codex 0.135 and newer restore a resumed thread's that
 *   way, naming its previous turn);
 * - on a resumed thread, an update inside the turn before the model answered whose total equals its last (codex
 *   0.80–0.134 restore the thread's stored usage that way, right after `turn/started`);
 * - else the first update's total less its last request.
 * Pure state; no I/O.
 */
export class TurnUsage {
  readonly #resumed: boolean;
  #baseline: Usage | null = null;
  #usage: Usage | null = null;
  #modelAnswered = false;

  constructor(resumed: boolean) {
    this.#resumed = resumed;
  }

  /** The turn's usage, or null while codex reported none of its requests. */
  get usage(): Usage | null {
    return this.#usage;
  }

  /** The model produced something in the turn (an item other than the user's message). */
  modelAnswered(): void {
    this.#modelAnswered = true;
  }

  /**
   * One update: the turn's usage, or null when it only told the thread's usage before the turn (sent before the
   * owned turn exists, or restored inside it).
   */
  update(total: Usage, last: Usage, turnExists: boolean): Usage | null {
    if (!turnExists || this.#isRestore(total, last)) {
      this.#baseline = total;
      return null;
    }
    this.#baseline ??= subtractUsage(total, last);
    this.#usage = subtractUsage(total, this.#baseline);
    return this.#usage;
  }

  #isRestore(total: Usage, last: Usage): boolean {
    return (
      this.#resumed &&
      !this.#modelAnswered &&
      this.#usage === null &&
      total.totalTokens > 0 &&
      sameUsage(total, last)
    );
  }
}

function sameUsage(a: Usage, b: Usage): boolean {
  return (
    a.inputTokens === b.inputTokens &&
    a.cacheReadTokens === b.cacheReadTokens &&
    a.cacheWriteTokens === b.cacheWriteTokens &&
    a.outputTokens === b.outputTokens &&
    a.reasoningTokens === b.reasoningTokens &&
    a.totalTokens === b.totalTokens
  );
}
