import type { TransportClosed } from "../jsonl/transport.js";
import type { ProcessExit } from "../process/stdio-child.js";
import type { TimerSet } from "./timer-set.js";

/** How long stdout may still deliver after the child exited, before the exit is reported. */
const STDOUT_AFTER_EXIT_MS = 500;
/** How long the child may take to exit after it closed its output, before that is reported. */
const EXIT_AFTER_CLOSE_MS = 2_000;

/**
 * Watches a child going away, which it does in two steps that arrive in either order: its exit and the close
 * of its output. `onGone` runs once both have happened, or once the first has and the other is overdue: stdout
 * may still deliver what the child wrote before it exited, and a child may close its output without exiting.
 * A child that never started (a `spawn-error` exit) has nothing to deliver: it is gone at once.
 * `onGone` may run more than once; the caller keeps the first.
 */
export class ChildDeparture {
  exit: ProcessExit | null = null;
  closed: TransportClosed | null = null;
  readonly #timers: TimerSet;
  readonly #onGone: () => void;

  constructor(timers: TimerSet, onGone: () => void) {
    this.#timers = timers;
    this.#onGone = onGone;
  }

  /** Whether the child has exited or closed its output (not counting a close the owner asked for). */
  get departing(): boolean {
    return this.exit !== null || (this.closed !== null && this.closed.type !== "local");
  }

  exited(exit: ProcessExit): void {
    this.exit = exit;
    if (this.closed || exit.type === "spawn-error") this.#onGone();
    else this.#timers.set(STDOUT_AFTER_EXIT_MS, this.#onGone);
  }

  /** A close the owner asked for (`local`) is not the child going away. */
  outputClosed(reason: TransportClosed): void {
    this.closed = reason;
    if (reason.type === "local") return;
    if (this.exit) this.#onGone();
    else this.#timers.set(EXIT_AFTER_CLOSE_MS, this.#onGone);
  }

  /** Gives the child at most `ms` more to go away (e.g. after its input was ended): `onGone` runs then at the latest. */
  within(ms: number): void {
    this.#timers.set(ms, this.#onGone);
  }
}
