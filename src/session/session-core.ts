import { RennetError } from "../errors.js";
import type { EventChannel } from "../harness/event-channel.js";
import type {
  EventBody,
  Failure,
  HarnessEvent,
  HarnessName,
  TerminalEvent,
  TurnFailure,
} from "../harness/events.js";
import { onAbort } from "../harness/on-abort.js";
import { randomUuid } from "../random-id.js";
import { EventStamper } from "./event-stamper.js";
import { isoClock } from "./iso-clock.js";
import { ReadThrottle } from "./read-throttle.js";
import type { CancelledVia, TerminalBodies, TerminalBody } from "./terminal-body.js";
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
  /** The owned turn's id, stamped on every event; null before the turn exists. */
  turnId: () => string | null;
  /** Sees every body once it is stamped and pushed (the limits are checked here; a stop may end the session). */
  observe: (body: EventBody) => void;
  /** The terminal bodies: what the turn produced, the trust, the cancel reason. */
  outcome: TerminalBodies;
  /**
   * Runs first when the session ends, before it counts as ended: what waits for the app gets its answer (and its
   * record) now, and the runner leaves its own states.
   */
  ending: () => void;
  /** The events that close every tool still open; `reason` is what their calls end with. */
  closeTools: (reason: unknown) => Iterable<EventBody>;
  /** Ends the process tree, once the terminal frame is out. */
  teardown: () => Promise<void>;
}

/**
 * What every harness's turn runner owns besides its turn: the stamped event stream behind the read throttle, the
 * timers, the lifetime (and the caller's abort signal followed while it lasts), the one terminal frame and the
 * result. The runner decides when and how the turn ends; this ends the session the same way for every harness.
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
  /** What rejects each {@link race} still waiting for its step, when the session ends. */
  readonly #racing = new Set<() => void>();
  /** Rejects with {@link ENDED} once the session has ended. */
  readonly ended = new Promise<never>((_, reject) => {
    this.#lifetime.signal.addEventListener(
      "abort",
      () => {
        reject(ENDED);
        for (const end of this.#racing) end();
        this.#racing.clear();
      },
      { once: true },
    );
  });
  readonly #stamper: EventStamper;
  readonly #options: SessionCoreOptions;
  #finished = false;
  #resolveResult!: (terminal: TerminalEvent) => void;

  constructor(options: SessionCoreOptions) {
    this.id = options.sessionId ?? randomUuid();
    this.#options = options;
    this.channel = this.throttle.channel(() =>
      options.cancel(new RennetError("CONSUMER_STOPPED", "the event consumer stopped")),
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
      this.#options.cancel(signal.reason);
      return false;
    }
    if (signal) onAbort(signal, () => this.#options.cancel(signal.reason), this.#lifetime.signal);
    return true;
  }

  /**
   * Arms the overall deadline (none when null): it covers the whole session (finding the agent, the spawn, the
   * start and the turn itself), and fails it when it expires.
   */
  armDeadline(turnMs: number | null): void {
    if (turnMs !== null) this.timers.set(turnMs, () => this.fail(deadlineFailure(turnMs)));
  }

  /**
   * Stamps and pushes one event (see {@link EventStamper}), then lets the runner observe it; null once the
   * terminal frame is out.
   */
  emit(body: EventBody): HarnessEvent | null {
    const event = this.#stamper.emit(body, this.#options.turnId());
    this.#options.observe(body);
    return event;
  }

  /** Resolves with `step`, or rejects with {@link ENDED} when the session has ended before or after it settled. */
  async until<T>(step: Promise<T>): Promise<T> {
    const value = await this.race(step);
    if (this.#lifetime.signal.aborted) throw ENDED;
    return value;
  }

  /**
   * Settles as `step` does, unless the session ends first: then rejects with {@link ENDED}. Nothing of `step` is
   * held once it settled (a race against {@link ended}, which lives as long as the session, would keep every
   * step and its value until the session ends).
   */
  race<T>(step: Promise<T>): Promise<T> {
    if (this.#lifetime.signal.aborted) return Promise.race([step, this.ended]);
    return new Promise<T>((resolve, reject) => {
      const end = (): void => reject(ENDED);
      this.#racing.add(end);
      step.then(
        (value) => {
          this.#racing.delete(end);
          resolve(value);
        },
        (error: unknown) => {
          this.#racing.delete(end);
          reject(error);
        },
      );
    });
  }

  /** Ends the session as failed (see {@link finish}). */
  fail(failure: Failure): void {
    this.finish(this.#options.outcome.failed(failure));
  }

  /** Ends the session as cancelled `via` (see {@link finish}). */
  cancelled(via: CancelledVia): void {
    this.finish(this.#options.outcome.cancelled(via));
  }

  /**
   * Ends the session with `body` as its one terminal frame; a call once it has ended does nothing. First the
   * runner's `ending` (the session has not ended yet: what it emits is streamed); then reading goes on, the
   * timers are cleared and the lifetime aborted; every open tool is closed (with the cancel reason for a
   * cancelled turn, else `SESSION_ENDED`), the terminal frame is emitted, and after it the tree ends and the
   * stream closes.
   */
  finish(body: TerminalBody): void {
    if (this.#finished) return;
    const options = this.#options;
    options.ending();
    this.#finished = true;
    this.throttle.release();
    this.timers.close();
    const ended = new RennetError("SESSION_ENDED", "the turn has ended");
    this.#lifetime.abort(ended);
    const reason = body.outcome === "cancelled" ? options.outcome.cancelReason : ended;
    for (const closed of options.closeTools(reason)) this.emit(closed);
    const terminal = this.emit(body);
    if (terminal?.type === "terminal") void this.#close(terminal);
  }

  /**
   * After the terminal frame: lets a waiting consumer get it before the teardown reads the process table, then
   * closes the stream and resolves the result.
   */
  async #close(terminal: TerminalEvent): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.#options.teardown();
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
