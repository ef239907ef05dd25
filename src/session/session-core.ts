import { RennetError } from "../errors.js";
import type { EventChannel } from "../harness/event-channel.js";
import type { EventBody, HarnessEvent, HarnessName, TerminalEvent, TurnFailure } from "../harness/events.js";
import { onAbort } from "../harness/on-abort.js";
import { randomUuid } from "../random-id.js";
import { EventStamper } from "./event-stamper.js";
import { isoClock } from "./iso-clock.js";
import { ReadThrottle } from "./read-throttle.js";
import { TimerSet } from "./timer-set.js";

/** Rejection of every step raced against {@link SessionCore.ended} once the session has ended. */
export const ENDED: unique symbol = Symbol("ended");

export interface SessionCoreOptions {
  harness: HarnessName;
  /** The session's id; a random UUID when absent. */
  sessionId?: string | undefined;
  /** The clock of the events' `at` (see {@link isoClock}). */
  now?: (() => Date) | undefined;
  /** Cancels the session: called when the consumer stops reading, and when the caller's signal aborts. */
  cancel: (reason: unknown) => void;
}

/**
 * What every harness's turn runner owns besides its turn: the stamped event stream behind the read throttle, the
 * timers, the lifetime that ends once (and the caller's abort signal followed while it lasts), and the one
 * result. The runner decides when the session ends; this ends it the same way for every harness.
 */
export class SessionCore {
  readonly id: string;
  readonly timers = new TimerSet();
  /** Pauses reading the child's stdout while the consumer is behind (see {@link ReadThrottle}). */
  readonly throttle = new ReadThrottle();
  readonly channel: EventChannel<HarnessEvent>;
  readonly result: Promise<TerminalEvent>;
  /** Aborted when the session ends: stops whatever a preparing step still runs, removes the caller's listener. */
  readonly #lifetime = new AbortController();
  /** Rejects with {@link ENDED} once the session has ended. */
  readonly ended = new Promise<never>((_, reject) => {
    this.#lifetime.signal.addEventListener("abort", () => reject(ENDED), { once: true });
  });
  readonly #stamper: EventStamper;
  readonly #cancel: (reason: unknown) => void;
  #resolveResult!: (terminal: TerminalEvent) => void;

  constructor(options: SessionCoreOptions) {
    this.id = options.sessionId ?? randomUuid();
    this.#cancel = options.cancel;
    this.channel = this.throttle.channel(() =>
      this.#cancel(new RennetError("CONSUMER_STOPPED", "the event consumer stopped")),
    );
    this.#stamper = new EventStamper(options.harness, this.id, isoClock(options.now), (event) =>
      this.channel.push(event),
    );
    this.result = new Promise((resolve) => {
      this.#resolveResult = resolve;
    });
    this.ended.catch(() => undefined);
  }

  /** Aborted once the session has ended. */
  get signal(): AbortSignal {
    return this.#lifetime.signal;
  }

  /**
   * Follows the caller's `signal`: cancels with its reason when it aborts while the session lives (one listener
   * per signal however many sessions share it; this one's goes when the session ends). A signal aborted already
   * cancels at once; false then, and the runner starts nothing.
   */
  follow(signal: AbortSignal | undefined): boolean {
    if (signal?.aborted) {
      this.#cancel(signal.reason);
      return false;
    }
    if (signal) onAbort(signal, () => this.#cancel(signal.reason), this.#lifetime.signal);
    return true;
  }

  /**
   * Arms the overall deadline (none when null): it covers the whole session (finding the agent, the spawn, the
   * start and the turn itself); `fail` ends the session with the deadline's failure.
   */
  armDeadline(turnMs: number | null, fail: (failure: TurnFailure) => void): void {
    if (turnMs !== null) this.timers.set(turnMs, () => fail(deadlineFailure(turnMs)));
  }

  /** Stamps and pushes one event (see {@link EventStamper}); null once the terminal frame is out. */
  emit(body: EventBody, turnId: string | null): HarnessEvent | null {
    return this.#stamper.emit(body, turnId);
  }

  /** Resolves with `step`, or rejects with {@link ENDED} when the session has ended before or after it settled. */
  async until<T>(step: Promise<T>): Promise<T> {
    const value = await Promise.race([step, this.ended]);
    if (this.#lifetime.signal.aborted) throw ENDED;
    return value;
  }

  /**
   * Ends the session before its terminal frame: reads on, clears the timers, aborts the lifetime. Returns the
   * `SESSION_ENDED` error pending steps were ended with.
   */
  end(): RennetError {
    this.throttle.release();
    this.timers.close();
    const ended = new RennetError("SESSION_ENDED", "the turn has ended");
    this.#lifetime.abort(ended);
    return ended;
  }

  /**
   * After the terminal frame: lets a waiting consumer get it before `teardown` (ending the process tree) reads
   * the process table, then closes the stream and resolves the result.
   */
  async close(terminal: TerminalEvent, teardown: () => Promise<void>): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await teardown();
    this.channel.close();
    this.#resolveResult(terminal);
  }
}

/** The overall deadline (`timeouts.turnMs`) expired. */
function deadlineFailure(turnMs: number): TurnFailure {
  return {
    source: "turn",
    message: `the turn did not complete within ${turnMs} ms (overall deadline); the process tree was killed`,
    errorInfo: null,
    additionalDetails: null,
    timeout: { step: "turn", timeoutMs: turnMs },
  };
}
