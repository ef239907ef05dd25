/**
 * A session whose runner loads behind a client's lazy-entry door: importing the package loads no turn runner,
 * a client's first session does. The session exists at once (its id, stream and result); `cancel` and `steer`
 * reach the runner as soon as it is built, which is a few microtasks later where Node loads the runner's modules
 * synchronously (`require` of an ES module), the load's time otherwise.
 */
import { errorMessage, RennetError } from "../errors.js";
import type { SteerInput } from "../harness/approvals.js";
import { SteerError } from "../harness/errors.js";
import { bufferedReader, eventsIteratedTwice } from "../harness/event-channel.js";
import type { HarnessName } from "../harness/event-base.js";
import type { HarnessEvent, TerminalEvent } from "../harness/events.js";
import type { HarnessSession } from "../harness/session.js";
import { randomUuid } from "../random-id.js";

/** A harness's turn runner as its client starts it. */
export interface StartedSession extends HarnessSession {
  /** The reason given to `cancel()` (or the caller's signal's), as passed; what `run()` rejects with. */
  readonly cancelReason: unknown;
}

/**
 * What a deferred session builds its runner with; its id is the session's. `cancelled()` tells whether the
 * session was cancelled before the runner existed: such a runner is built without the caller's signal (see
 * {@link withoutSignalOnceCancelled}), so the first cancel's reason stays the one the turn ends with.
 */
export type BuildRunner = (sessionId: string, cancelled: () => boolean) => Promise<StartedSession>;

/** A runner's options without the caller's `signal` when the session was cancelled already; as given otherwise. */
export function withoutSignalOnceCancelled<O extends { signal?: AbortSignal }>(
  options: O,
  cancelled: boolean,
): Omit<O, "signal"> {
  if (!cancelled) return options;
  const { signal: _signal, ...rest } = options;
  return rest;
}

/** The events of a session: a single-consumer stream that may also hand over what is already queued. */
interface SessionEvents extends AsyncIterable<HarnessEvent> {
  /** Every event already queued, without waiting (see `EventChannel.readBuffered`); empty before the runner exists. */
  readBuffered(): HarnessEvent[];
}

/**
 * A {@link StartedSession} over a runner built asynchronously. Cancelling before the runner exists cancels it
 * once built (before any spawn: its prepare step has not run). A runner that cannot be loaded (a bundle without
 * the runner's chunk, a damaged install) ends the session with one failed terminal frame (`spawn`,
 * `RUNNER_UNAVAILABLE`) naming the cause; nothing was started.
 */
export class DeferredSession implements StartedSession {
  readonly id: string;
  readonly result: Promise<TerminalEvent>;
  readonly events: SessionEvents;
  #runner: StartedSession | null = null;
  #cancel: { reason: unknown } | null = null;
  readonly #built: Promise<StartedSession | TerminalEvent>;

  constructor(harness: HarnessName, command: string, build: BuildRunner) {
    const id = (this.id = randomUuid());
    this.#built = build(id, () => this.#cancel !== null).then(
      (runner) => {
        this.#runner = runner;
        if (this.#cancel !== null) runner.cancel(this.#cancel.reason);
        return runner;
      },
      (error: unknown) => unavailableTerminal(harness, id, command, error),
    );
    this.result = this.#built.then((built) => (isTerminal(built) ? built : built.result));
    this.events = this.#eventStream();
  }

  get cancelReason(): unknown {
    return this.#runner !== null ? this.#runner.cancelReason : this.#cancel?.reason;
  }

  cancel(reason?: unknown): void {
    if (this.#runner !== null) this.#runner.cancel(reason);
    else this.#cancel ??= { reason };
  }

  async steer(input: string | readonly SteerInput[]): Promise<void> {
    const built = await this.#built;
    if (isTerminal(built)) throw steerWithoutRunner(undefined);
    return built.steer(input);
  }

  /** The runner's stream once it is built; each `next` is the runner's own (no extra step per event). */
  #eventStream(): SessionEvents {
    let inner: AsyncIterator<HarnessEvent> | null = null;
    let buffered: (() => HarnessEvent[]) | null = null;
    let opening: Promise<AsyncIterator<HarnessEvent>> | null = null;
    const open = (): Promise<AsyncIterator<HarnessEvent>> =>
      (opening ??= this.#built.then((built) => {
        const events = isTerminal(built) ? only(built) : built.events;
        buffered = bufferedReader(events);
        return (inner = events[Symbol.asyncIterator]());
      }));
    const iterator: AsyncIterator<HarnessEvent> = {
      next: () => (inner !== null ? inner.next() : open().then((it) => it.next())),
      return: async (value?: unknown) => {
        const it = inner ?? (await open());
        return it.return ? it.return(value) : { done: true, value: undefined };
      },
    };
    let iterated = false;
    return {
      [Symbol.asyncIterator]: () => {
        if (iterated) throw eventsIteratedTwice();
        iterated = true;
        return iterator;
      },
      readBuffered: () => (buffered !== null ? buffered() : []),
    };
  }
}

async function* only(terminal: TerminalEvent): AsyncGenerator<HarnessEvent> {
  yield terminal;
}

function isTerminal(built: StartedSession | TerminalEvent): built is TerminalEvent {
  return (built as Partial<TerminalEvent>).type === "terminal";
}

/** The one frame of a session whose runner could not be loaded. */
function unavailableTerminal(
  harness: HarnessName,
  sessionId: string,
  command: string,
  error: unknown,
): TerminalEvent {
  return {
    seq: 1,
    harness,
    sessionId,
    turnId: null,
    at: new Date().toISOString(),
    type: "terminal",
    finalMessage: null,
    usage: null,
    model: null,
    threadId: null,
    outcome: "failed",
    failure: {
      source: "spawn",
      message: `${command} was not started: ${runnerUnavailable(error).message}`,
      errno: null,
      command,
      code: "RUNNER_UNAVAILABLE",
    },
    cancellation: null,
  };
}

/**
 * The error for a part of a turn's runner that could not be loaded (its chunk left out of a bundle, a damaged
 * install): `RUNNER_UNAVAILABLE`, naming the load error and the fix, with the load error as its cause. Pure.
 */
export function runnerUnavailable(error: unknown): RennetError {
  return new RennetError(
    "RUNNER_UNAVAILABLE",
    `Rennet could not load its turn runner (${errorMessage(error)}); ` +
      "reinstall rennet-adapters, or include its lazily loaded modules in your bundle",
    { cause: error },
  );
}

/** What `steer()` rejects with once the turn's runner could not be loaded (`cause`: the load error). */
export function steerWithoutRunner(cause: unknown): SteerError {
  return new SteerError("TURN_NOT_RUNNING", "the turn has ended: its runner could not be loaded", { cause });
}
