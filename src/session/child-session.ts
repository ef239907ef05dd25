import { onAbort } from "../harness/on-abort.js";
import type { Transport, TransportClosed, TransportListener } from "../jsonl/transport.js";
import { failedChild } from "../process/failed-child.js";
import type { Launcher, LaunchSpec, ProcessExit, StdioChild } from "../process/stdio-child.js";
import { ChildDeparture } from "./child-departure.js";
import type { ReadThrottle } from "./read-throttle.js";
import { TimerSet } from "./timer-set.js";

/** How a child went away. */
export interface ChildGone {
  /** Its exit; null when it closed its output and had not exited within the wait. */
  exit: ProcessExit | null;
  /** Why its output stopped; null when it exited and its output had not closed within the wait. */
  closed: TransportClosed | null;
  /** The last KiB of its stderr, read when it was gone. */
  stderrTail: string;
}

export interface ChildSessionOptions {
  launcher: Launcher;
  spec: LaunchSpec;
  /** The owner's timers, for the departure's waits. Default: the session's own, cleared by {@link ChildSession.end}. */
  timers?: TimerSet;
  /** Pauses reading while the owner's consumer is behind; released for good once the child exits. */
  throttle?: ReadThrottle;
  /** Ends the tree at once when it aborts. */
  signal?: AbortSignal;
  /** Runs once, synchronously, when the child has gone (see {@link ChildDeparture}); never after `end()` began. */
  onGone?(gone: ChildGone): void;
}

/**
 * One started child that speaks in lines of JSON over its stdin and stdout, whatever the protocol on top:
 * the one spawn (through the launcher), the frame stream and the writes ({@link transport}, {@link read},
 * {@link write}, {@link endInput}), its departure (exit and output close in either order: {@link gone}), its
 * stderr tail, the owner's read throttle, the abort wiring, and the end of its whole process tree
 * ({@link end}, idempotent). A tree whose child has gone is still ended by `end()`: descendants that left
 * its process group are found by the tree walk only.
 */
export class ChildSession {
  readonly child: StdioChild;
  /** The child's frame stream and stdin; its close is observed by the departure. Start it once. */
  readonly transport: Transport;
  readonly departure: ChildDeparture;
  readonly #timers: TimerSet;
  readonly #ownTimers: boolean;
  readonly #lifetime = new AbortController();
  readonly #onGone: ((gone: ChildGone) => void) | undefined;
  #resolveGone!: (gone: ChildGone) => void;
  readonly #gone = new Promise<ChildGone>((resolve) => {
    this.#resolveGone = resolve;
  });
  #isGone = false;
  #ending: Promise<void> | null = null;

  /** Spawns the child now. Never throws: a failed spawn is a departure with a `spawn-error` exit. */
  static start(options: ChildSessionOptions): ChildSession {
    return new ChildSession(options);
  }

  private constructor(options: ChildSessionOptions) {
    this.#ownTimers = options.timers === undefined;
    this.#timers = options.timers ?? new TimerSet();
    this.#onGone = options.onGone;
    this.departure = new ChildDeparture(this.#timers, () => this.#departed());
    this.child = launch(options);
    this.transport = observedTransport(this.child.transport, this.departure);
    const throttle = options.throttle;
    throttle?.attach(this.child.transport);
    void this.child.exit.then((exit) => {
      // an exited child writes no more: what its stdout still holds is bounded and must be read now
      throttle?.release();
      this.departure.exited(exit);
    });
    const signal = options.signal;
    if (signal?.aborted) void this.end();
    else if (signal) onAbort(signal, () => void this.end(), this.#lifetime.signal);
  }

  /** OS pid; null for an in-memory peer and for a spawn that failed. */
  get pid(): number | null {
    return this.child.pid;
  }

  /** The last KiB of the child's stderr, as text. */
  stderrTail(): string {
    return this.child.stderrTail();
  }

  /** Starts reading the child's frames: objects to `frame`, other lines to `invalid`; `closed` once at the end. */
  read(listener: TransportListener): void {
    this.transport.start(listener);
  }

  /** Writes one frame as a line on the child's stdin; false once the input is closed or the frame is not JSON. */
  write(frame: object): boolean {
    return this.transport.send(frame);
  }

  /** Ends the child's stdin (EOF); reading goes on. */
  endInput(): void {
    this.transport.endOutput();
  }

  /** Ends the child's stdin and gives it at most `ms` to go away; the departure is reported then at the latest. */
  endInputWithin(ms: number): void {
    this.endInput();
    this.departure.within(ms);
  }

  /** Resolves once the child has gone (see {@link ChildSessionOptions.onGone}). */
  gone(): Promise<ChildGone> {
    return this.#gone;
  }

  /**
   * Ends the whole tree (stdin EOF, SIGTERM, then SIGKILL after `graceMs`, see `StdioChild.terminate`), then
   * stops reading. Idempotent: every call shares one end. Never rejects.
   */
  end(options?: { graceMs?: number }): Promise<void> {
    this.#ending ??= this.#end(options);
    return this.#ending;
  }

  async #end(options: { graceMs?: number } | undefined): Promise<void> {
    this.#lifetime.abort();
    try {
      await this.child.terminate(options);
    } catch {
      // terminate is best-effort by contract; the owner's outcome must not depend on it
    }
    this.transport.close();
    if (this.#ownTimers) this.#timers.close();
  }

  #departed(): void {
    if (this.#isGone) return;
    this.#isGone = true;
    const { exit, closed } = this.departure;
    const gone: ChildGone = { exit, closed, stderrTail: this.child.stderrTail() };
    this.#resolveGone(gone);
    if (this.#ending === null) this.#onGone?.(gone);
  }
}

/** `transport`, whose close is also told to `departure`. */
function observedTransport(transport: Transport, departure: ChildDeparture): Transport {
  return {
    start: (listener) =>
      transport.start({
        frame: listener.frame.bind(listener),
        invalid: listener.invalid.bind(listener),
        closed: (reason) => {
          departure.outputClosed(reason);
          listener.closed(reason);
        },
      }),
    send: (frame) => transport.send(frame),
    endOutput: () => transport.endOutput(),
    close: () => transport.close(),
    pause: () => transport.pause?.(),
    resume: () => transport.resume?.(),
    get isClosed() {
      return transport.isClosed;
    },
  };
}

/** The started child; a launcher that throws gives a child whose spawn failed (see {@link failedChild}). */
function launch(options: ChildSessionOptions): StdioChild {
  try {
    return options.launcher(options.spec);
  } catch (error) {
    return failedChild(error);
  }
}
