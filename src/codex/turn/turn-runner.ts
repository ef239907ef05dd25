import path from "node:path";
import { DEFAULT_INTERRUPT_GRACE_MS } from "../../session/interrupt-grace.js";
import type { EventBody, HarnessEvent, TerminalEvent, TurnLimit } from "../../harness/events.js";
import type { SteerInput } from "../../harness/approvals.js";
import { limitReached, TurnLimiter } from "../../session/limit-watch.js";
import { steerInputs } from "../../call/steer-inputs.js";
import { steerTurn } from "./turn-steer.js";
import type { HarnessSession } from "../../harness/session.js";
import { RennetError } from "../../errors.js";
import type { ChildGone } from "../../session/child-session.js";
import type { StdioChild } from "../../process/stdio-child.js";
import { ENDED, SessionCore } from "../../session/session-core.js";
import { stateDbRaceWarning } from "../versions/state-db-race.js";
import type { TurnEnd } from "./event-mapper.js";
import {
  goneFailure,
  invalidLineFailure,
  prepareFailure,
  refusedFailure,
  startFailure,
} from "./turn-failures.js";
import type { TurnChild, TurnChildInput, TurnChildRunner, TurnRuntime } from "./turn-child.js";
import { prepareTurn, type LaunchContext } from "./turn-launch.js";
import { TurnOutcome } from "./turn-outcome.js";
import { TurnOwnership } from "./turn-ownership.js";
import { LATE_TOOL_COMPLETION_MS, type RunnerState, type TurnRunnerOptions } from "./turn-runner-options.js";
import { withDefaultTimeouts, type TurnTimeouts } from "./turn-timeouts.js";

/**
 * Runs one Codex turn in one app-server child (a {@link TurnChild}) and exposes it as a {@link HarnessSession}.
 * Owns the turn's outcome: whatever ends it, the terminal event is emitted once, then the child's whole process
 * tree is ended and the stream closed.
 */
export class CodexTurnRunner implements HarnessSession {
  readonly id: string;
  readonly result: Promise<TerminalEvent>;
  readonly #options: TurnRunnerOptions;
  readonly #timeouts: TurnTimeouts;
  readonly #ownership = new TurnOwnership();
  /** The stream, the timers, the read throttle and the lifetime (see {@link SessionCore}). */
  readonly #core: SessionCore;
  /** The cwd on this machine (the spawn cwd). */
  readonly #cwd: string;
  #state: RunnerState = "starting";
  #command: string;
  /** The turn child once opened (the protocol half is loaded by then); null before. */
  #child: TurnChild | null = null;
  /** Codex once started, before the turn child takes it: ended with the session if that never happens. */
  #started: StdioChild | null = null;
  /** The owned turn's end while the runner is `settling`. */
  #pendingEnd: TurnEnd | null = null;
  /** The call's limits, checked as events arrive; what stops the turn at one. */
  readonly #limits: TurnLimiter;
  /** The terminal body: what the turn produced, the trust, the cancel reason. */
  readonly #outcome: TurnOutcome;
  /** Resolved once the turn is acknowledged (`running`); what `steer()` waits for. */
  #resolveRunning!: () => void;
  readonly #running = new Promise<void>((resolve) => {
    this.#resolveRunning = resolve;
  });

  constructor(options: TurnRunnerOptions) {
    this.#options = options;
    this.#timeouts = withDefaultTimeouts(options.timeouts);
    this.#cwd = path.resolve(options.cwd ?? process.cwd());
    const limits = (this.#limits = new TurnLimiter(options.limits, (limit) => this.#stopAtLimit(limit)));
    const mapper = () => this.#child?.mapper;
    const outcome = new TurnOutcome(this.#ownership, limits, mapper, options.completionCheck);
    this.#outcome = outcome;
    this.#command = options.command ?? "codex";
    const core = (this.#core = new SessionCore({
      harness: "codex",
      sessionId: options.sessionId,
      now: options.now,
      cancel: (reason) => this.cancel(reason),
      turnId: () => this.#ownership.turnId,
      observe: (body) => limits.observe(body),
      outcome,
      ending: () => {
        // requests still waiting for the app get their answer and their record before the terminal frame
        this.#child?.requests.cancelPending(new RennetError("SESSION_ENDED", "the turn has ended"));
        this.#state = "ended";
      },
      closeTools: (reason) => this.#closeTools(reason),
      // codex keeps running until its stdin closes, so its tree is the same one event-loop turn later
      teardown: async () => (this.#child ? this.#child.end() : this.#started?.terminate()),
    }));
    this.id = core.id;
    this.result = core.result;
    if (core.follow(options.signal)) void this.#run();
  }

  get events(): AsyncIterable<HarnessEvent> {
    return this.#core.channel;
  }

  get state(): RunnerState {
    return this.#state;
  }

  /** The reason given to `cancel()` (or the signal's reason), preserved as passed. */
  get cancelReason(): unknown {
    return this.#outcome.cancelReason;
  }

  /**
   * Cancels the turn: with a turn id, `turn/interrupt` and up to the interrupt grace for the interrupted
   * `turn/completed`, then the kill; before a turn id exists, the kill at once. Idempotent.
   */
  cancel(reason?: unknown): void {
    if (this.#state === "ended" || this.#state === "cancelling") return;
    if (this.#state === "settling") {
      // the turn already completed: it gets no interrupt, and its outcome stands
      this.#settle();
      return;
    }
    this.#outcome.cancelReason = reason;
    const { threadId, turnId } = this.#ownership;
    const child = this.#child;
    if (turnId === null || threadId === null || child === null) {
      this.#core.cancelled("before-turn");
      return;
    }
    this.#state = "cancelling";
    // the interrupted turn/completed comes behind whatever codex wrote before it: read it all
    this.#core.throttle.release();
    // a request waiting for the app is answered `cancel` first, so that codex is free to stop the turn
    child.requests.cancelPending(reason);
    child.interrupt(threadId, turnId);
    for (const closed of child.abortAppCalls(reason)) this.#core.emit(closed);
    this.#core.timers.set(this.#options.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS, () =>
      this.#core.cancelled("killed"),
    );
  }

  /**
   * Sends guidance into the running turn (`turn/steer` with the owned turn as `expectedTurnId`); waits for the
   * turn to be acknowledged when it is still starting. Resolves once codex accepted it; rejects with
   * {@link SteerError}: `TURN_NOT_RUNNING` (ended, ending, or never started), `STEER_UNSUPPORTED` (codex before
   * 0.100), `STEER_REFUSED`, `STEER_INPUT_INVALID`.
   */
  async steer(input: string | readonly SteerInput[]): Promise<void> {
    const inputs = steerInputs(input, this.#cwd);
    await steerTurn({
      inputs,
      running: () => this.#core.until(this.#running),
      target: () => {
        const { threadId, turnId } = this.#ownership;
        const child = this.#child;
        return this.#state === "running" && child && threadId !== null && turnId !== null
          ? { child, threadId, turnId }
          : null;
      },
      state: () => this.#state,
      // an accepted steer resolves even when the turn ended right behind codex's answer
      send: (step) => this.#core.race(step),
    });
  }

  #isEnded(): boolean {
    return this.#state === "ended";
  }

  async #run(): Promise<void> {
    this.#core.armDeadline(this.#timeouts.turnMs);
    this.#limits.start(this.#core.timers);
    let input: TurnChildInput;
    let runtime: TurnRuntime;
    try {
      ({ input, runtime } = await prepareTurn(this.#options, this.#launchContext(), (step) =>
        this.#core.until(step),
      ));
    } catch (error) {
      if (error !== ENDED) this.#core.fail(prepareFailure(error, this.#command));
      return;
    }
    // ended since the last step settled: the teardown has ended the started child
    if (this.#isEnded()) return;
    const child = (this.#child = runtime.openTurnChild(input, this.#childRunner()));
    this.#state = "handshaking";
    try {
      await child.start();
      if (this.#state === "handshaking") this.#state = "running";
      if (this.#state === "running") this.#resolveRunning();
    } catch (error) {
      if (error === ENDED || this.#isEnded()) return;
      const failure = startFailure(error, this.#command, child.departing);
      if (failure) this.#core.fail(failure);
    }
  }

  #launchContext(): LaunchContext {
    return {
      sessionId: this.id,
      cwd: this.#cwd,
      timeouts: this.#timeouts,
      throttle: this.#core.throttle,
      timers: this.#core.timers,
      signal: this.#core.signal,
      executable: (command) => (this.#command = command),
      started: (child) => (this.#started = child),
    };
  }

  /** What the child reports to; nothing of it reaches the stream once the session has ended. */
  #childRunner(): TurnChildRunner {
    return {
      ownership: this.#ownership,
      ended: () => this.#isEnded(),
      until: (step) => this.#core.until(step),
      emit: (body) => void this.#core.emit(body),
      mapped: (ended, turnStarted) => {
        if (turnStarted && this.#state === "handshaking" && this.#ownership.turnId) {
          this.#state = "running";
          this.#resolveRunning();
        }
        if (ended) this.#onTurnEnded(ended);
        else if (this.#state === "settling" && this.#child?.mapper.openToolCount === 0) this.#settle();
      },
      invalidLine: (message, line) => {
        // a turn that already completed keeps its outcome: what codex writes after it cannot change it
        if (this.#state === "settling") this.#settle();
        else this.#core.fail(invalidLineFailure(message, line));
      },
      refused: (error) => this.#core.fail(refusedFailure(error)),
      noThread: (line) =>
        this.#core.fail({ source: "parse", message: "thread/start returned no thread id", line }),
      trust: (trust) => {
        this.#outcome.trust = trust;
      },
      sessionStarted: (started) => {
        this.#core.emit({ ...started, pid: this.#child?.pid ?? null });
      },
      restarted: (restart) => void this.#core.emit(stateDbRaceWarning(restart)),
      gone: (gone) => this.#onGone(gone),
      cancel: (reason) => this.cancel(reason),
    };
  }

  #onTurnEnded(end: TurnEnd): void {
    if ((this.#child?.mapper.openToolCount ?? 0) > 0 && this.#state !== "cancelling") {
      this.#pendingEnd = end;
      this.#state = "settling";
      this.#core.throttle.release();
      this.#core.timers.set(LATE_TOOL_COMPLETION_MS, () => this.#settle());
      return;
    }
    this.#conclude(end);
  }

  /** Ends a `settling` session with the turn's own outcome. */
  #settle(): void {
    const end = this.#pendingEnd;
    if (this.#state === "settling" && end !== null) this.#conclude(end);
  }

  #conclude(end: TurnEnd): void {
    this.#core.finish(this.#outcome.ofTurnEnd(end, this.#state === "cancelling"));
  }

  /** The child went away after `initialize` was answered. */
  #onGone(gone: ChildGone): void {
    if (this.#state === "settling") {
      // the turn completed before codex went away: its outcome stands
      this.#settle();
    } else if (this.#state === "cancelling") {
      // codex went away while being interrupted: the caller asked for this end
      this.#core.cancelled("killed");
    } else {
      this.#core.fail(goneFailure(gone));
    }
  }

  /** A limit was exceeded: a turn not already ending is cancelled as for `cancel()`, its terminal naming it. */
  #stopAtLimit(limit: TurnLimit): boolean {
    if (this.#state === "ended" || this.#state === "cancelling" || this.#state === "settling") return false;
    this.cancel(limitReached(limit));
    return true;
  }

  /** The app calls still running are aborted with `reason`, then every tool still open is completed. */
  *#closeTools(reason: unknown): Iterable<EventBody> {
    yield* this.#child?.abortAppCalls(reason) ?? [];
    yield* this.#child?.mapper.closeOpenTools(undefined) ?? [];
  }
}
