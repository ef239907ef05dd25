import type { RequestTimeoutError } from "../jsonl/errors.js";
import type { TransportClosed } from "../jsonl/transport.js";
import type { ProcessExit } from "../process/stdio-child.js";
import type { TimerSet } from "./timer-set.js";

/**
 * After `initialize` stalled: how long a codex whose stdin was ended may take to exit and say why. Codex 0.72
 * and 0.80 with a config.toml they cannot load answer nothing and explain themselves only at stdin EOF.
 */
export const STALLED_HANDSHAKE_EXIT_MS = 1_000;

/** How long stdout may still deliver after the child exited, before the exit is reported. */
export const STDOUT_AFTER_EXIT_MS = 500;
/** How long the child may take to exit after it closed its output, before that is reported. */
export const EXIT_AFTER_CLOSE_MS = 2_000;

/**
 * Watches a child going away, which it does in two steps that arrive in either order: its exit and the close
 * of its output. `onGone` runs once both have happened, or once the first has and the other is overdue: stdout
 * may still deliver what codex wrote before it exited, and a child may close its output without exiting.
 * `onGone` may run more than once; the caller's end is idempotent.
 */
export class ChildDeparture {
  exit: ProcessExit | null = null;
  closed: TransportClosed | null = null;
  /** Set when `initialize` got no answer: the child's departure then ends the session as stalled. */
  stalled: RequestTimeoutError | null = null;
  readonly #timers: TimerSet;
  readonly #onGone: () => void;

  constructor(timers: TimerSet, onGone: () => void) {
    this.#timers = timers;
    this.#onGone = onGone;
  }

  /** Whether the child has exited or closed its output (not counting a close the runner asked for). */
  get departing(): boolean {
    return this.exit !== null || (this.closed !== null && this.closed.type !== "local");
  }

  exited(exit: ProcessExit): void {
    this.exit = exit;
    if (this.closed) this.#onGone();
    else this.#timers.set(STDOUT_AFTER_EXIT_MS, this.#onGone);
  }

  /**
   * `initialize` got no answer. Some codex versions explain why (e.g. a config they cannot load) only on stdin
   * EOF: `endOutput` sends it, and `onGone` runs when the child has gone or after a grace, whichever is first.
   */
  stalledHandshake(error: RequestTimeoutError, endOutput: () => void): void {
    this.stalled = error;
    endOutput();
    this.#timers.set(STALLED_HANDSHAKE_EXIT_MS, this.#onGone);
  }

  /** A close the runner asked for (`local`) is not the child going away. */
  outputClosed(reason: TransportClosed): void {
    this.closed = reason;
    if (reason.type === "local") return;
    if (this.exit) this.#onGone();
    else this.#timers.set(EXIT_AFTER_CLOSE_MS, this.#onGone);
  }
}
