import path from "node:path";
import { randomHex } from "../../random-id.js";
import { APP_TOOLS_TOKEN_ENV } from "../../tools/app-tools-names.js";
import type { EventBody, Failure, HarnessEvent, ProjectTrust, TerminalEvent } from "../../harness/events.js";
import type { EventChannel } from "../../harness/event-channel.js";
import { onAbort } from "../../harness/on-abort.js";
import type { HarnessSession } from "../../harness/session.js";
import { RennetError } from "../../errors.js";
import type { ChildGone } from "../../session/child-session.js";
import { launchExecutable } from "../../discovery/executable-launch.js";
import { EventStamper } from "../../session/event-stamper.js";
import { isoClock } from "../../session/iso-clock.js";
import { ReadThrottle } from "../../session/read-throttle.js";
import { TimerSet } from "../../session/timer-set.js";
import {
  cancelledBody,
  completedBody,
  failedBody,
  type CancelledVia,
  type TerminalBody,
  type TurnSoFar,
} from "../../session/terminal-body.js";
import { appServerLaunch } from "../app-server/app-server-launch.js";
import { stateDbRaceWarning } from "../versions/state-db-race.js";
import type { TurnEnd } from "./event-mapper.js";
import {
  deadlineFailure,
  goneFailure,
  invalidLineFailure,
  prepareFailure,
  refusedFailure,
  startFailure,
  turnEndFailure,
} from "./turn-failures.js";
import type { TurnChild, TurnChildInput, TurnChildRunner, TurnRuntime } from "./turn-child.js";
import { TurnOwnership } from "./turn-ownership.js";
import {
  DEFAULT_INTERRUPT_GRACE_MS,
  LATE_TOOL_COMPLETION_MS,
  type PreparedLaunch,
  type RunnerState,
  type TurnRunnerOptions,
} from "./turn-runner-options.js";
import { DEFAULT_TIMEOUTS, type TurnTimeouts } from "./turn-timeouts.js";
import { randomUuid } from "../../random-id.js";

/** Rejection of every pending step once the session has ended. */
const ENDED: unique symbol = Symbol("ended");

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
  readonly #channel: EventChannel<HarnessEvent>;
  readonly #ownership = new TurnOwnership();
  readonly #timers = new TimerSet();
  /** Pauses reading codex's stdout while the consumer is behind (see {@link ReadThrottle}). */
  readonly #throttle = new ReadThrottle();
  /** Aborted when the session ends: stops whatever `prepare` still runs, removes the caller's abort listener. */
  readonly #lifetime = new AbortController();
  /** Rejects with {@link ENDED} once the session has ended. */
  readonly #ended = new Promise<never>((_, reject) => {
    this.#lifetime.signal.addEventListener("abort", () => reject(ENDED), { once: true });
  });
  readonly #stamper: EventStamper;
  /** The cwd on this machine (the spawn cwd). */
  readonly #cwd: string;
  #state: RunnerState = "starting";
  #resolveResult!: (terminal: TerminalEvent) => void;
  #command: string;
  /** The child once started (the protocol half is loaded by then); null before. */
  #child: TurnChild | null = null;
  #cancelReason: unknown = undefined;
  /** The owned turn's end while the runner is `settling`. */
  #pendingEnd: TurnEnd | null = null;
  /** The cwd's trust, once the start sequence decided it. */
  #trust: ProjectTrust | null = null;

  constructor(options: TurnRunnerOptions) {
    this.#options = options;
    this.id = options.sessionId ?? randomUuid();
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#cwd = path.resolve(options.cwd ?? process.cwd());
    this.#command = options.command ?? "codex";
    this.#channel = this.#throttle.channel(() =>
      this.cancel(new RennetError("CONSUMER_STOPPED", "the event consumer stopped")),
    );
    this.#stamper = new EventStamper("codex", this.id, isoClock(options.now), (event) =>
      this.#channel.push(event),
    );
    this.result = new Promise((resolve) => {
      this.#resolveResult = resolve;
    });
    this.#ended.catch(() => undefined);
    const signal = options.signal;
    if (signal?.aborted) {
      this.#cancelReason = signal.reason;
      this.#cancelled("before-turn");
      return;
    }
    // one listener per signal however many sessions share it; this one's goes when the session ends
    if (signal) onAbort(signal, () => this.cancel(signal.reason), this.#lifetime.signal);
    void this.#run();
  }

  get events(): AsyncIterable<HarnessEvent> {
    return this.#channel;
  }

  get state(): RunnerState {
    return this.#state;
  }

  /** The reason given to `cancel()` (or the signal's reason), preserved as passed. */
  get cancelReason(): unknown {
    return this.#cancelReason;
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
    this.#cancelReason = reason;
    const { threadId, turnId } = this.#ownership;
    const child = this.#child;
    if (turnId === null || threadId === null || child === null) {
      this.#cancelled("before-turn");
      return;
    }
    this.#state = "cancelling";
    // the interrupted turn/completed comes behind whatever codex wrote before it: read it all
    this.#throttle.release();
    child.interrupt(threadId, turnId);
    for (const closed of child.abortAppCalls(reason)) this.#emit(closed);
    this.#timers.set(this.#options.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS, () =>
      this.#cancelled("killed"),
    );
  }

  #isEnded(): boolean {
    return this.#state === "ended";
  }

  /** Resolves with `step`, or rejects with {@link ENDED} when the session has ended before or after it settled. */
  async #until<T>(step: Promise<T>): Promise<T> {
    const value = await Promise.race([step, this.#ended]);
    if (this.#state === "ended") throw ENDED;
    return value;
  }

  async #run(): Promise<void> {
    const turnMs = this.#timeouts.turnMs;
    // The overall deadline covers the whole session: discovery, spawn, handshake and the turn itself.
    if (turnMs !== null) this.#timers.set(turnMs, () => this.#fail(deadlineFailure(turnMs)));
    let input: TurnChildInput;
    let runtime: TurnRuntime;
    try {
      const preparing = this.#prepareLaunch();
      // the protocol half loads while `prepare` waits on discovery and the reaper
      const loading = this.#loadRuntime();
      input = await this.#until(preparing);
      runtime = await this.#until(loading);
    } catch (error) {
      if (error !== ENDED) this.#fail(prepareFailure(error, this.#command));
      return;
    }
    const child = (this.#child = runtime.openTurnChild(input, this.#childRunner()));
    this.#state = "handshaking";
    try {
      await child.start();
      if (this.#state === "handshaking") this.#state = "running";
    } catch (error) {
      if (error === ENDED || this.#isEnded()) return;
      const failure = startFailure(error, this.#command, child.departing);
      if (failure) this.#fail(failure);
    }
  }

  /** Runs `prepare` (or takes the given codex) and plans the launch (throws `LaunchCwdError` for a WSL cwd). */
  async #prepareLaunch(): Promise<TurnChildInput> {
    const prepared: PreparedLaunch = this.#options.prepare
      ? await this.#options.prepare(this.#lifetime.signal)
      : { codex: this.#options.codex ?? { type: "native", command: "codex" }, appServerArgs: [] };
    this.#command = launchExecutable(prepared.codex);
    const launcher = prepared.launcher ?? this.#options.launcher;
    if (launcher === undefined)
      throw new RennetError("INTERNAL_ERROR", "no launcher: the runner options and prepare gave none");
    const tools = this.#options.tools ?? null;
    // the app tools' loopback MCP server (codex before dynamic tools) admits only this child: the secret is in
    // its environment alone, never in argv
    const appToolsSecret = tools === null ? null : randomHex(32);
    const baseEnv = this.#options.env ?? process.env;
    const env = appToolsSecret === null ? baseEnv : { ...baseEnv, [APP_TOOLS_TOKEN_ENV]: appToolsSecret };
    const args = [...(this.#options.appServerArgs ?? []), ...prepared.appServerArgs];
    return {
      launch: appServerLaunch(prepared.codex, args, { cwd: this.#cwd, env }),
      launcher,
      mcpThreadConfig: prepared.mcpThreadConfig ?? null,
      local: { cwd: this.#cwd, env },
      request: this.#options,
      tools,
      appToolsSecret,
      ...(this.#options.loadAppToolsMcp ? { loadAppToolsMcp: this.#options.loadAppToolsMcp } : {}),
      sessionId: this.id,
      timeouts: this.#timeouts,
      throttle: this.#throttle,
      timers: this.#timers,
    };
  }

  async #loadRuntime(): Promise<TurnRuntime> {
    const runtime = this.#options.runtime;
    return typeof runtime === "function" ? runtime() : runtime;
  }

  /** What the child reports to; nothing of it reaches the stream once the session has ended. */
  #childRunner(): TurnChildRunner {
    return {
      ownership: this.#ownership,
      ended: () => this.#isEnded(),
      until: (step) => this.#until(step),
      emit: (body) => {
        this.#emit(body);
      },
      mapped: (ended, turnStarted) => {
        if (turnStarted && this.#state === "handshaking" && this.#ownership.turnId) this.#state = "running";
        if (ended) this.#onTurnEnded(ended);
        else if (this.#state === "settling" && this.#child?.mapper.openToolCount === 0) this.#settle();
      },
      invalidLine: (message, line) => {
        // a turn that already completed keeps its outcome: what codex writes after it cannot change it
        if (this.#state === "settling") this.#settle();
        else this.#fail(invalidLineFailure(message, line));
      },
      refused: (error) => this.#fail(refusedFailure(error)),
      noThread: (line) =>
        this.#fail({ source: "parse", message: "thread/start returned no thread id", line }),
      trust: (trust) => {
        this.#trust = trust;
      },
      sessionStarted: (started) => {
        this.#emit({ ...started, pid: this.#child?.pid ?? null });
      },
      restarted: (restart) => {
        this.#emit(stateDbRaceWarning(restart));
      },
      gone: (gone) => this.#onGone(gone),
    };
  }

  #onTurnEnded(end: TurnEnd): void {
    if ((this.#child?.mapper.openToolCount ?? 0) > 0 && this.#state !== "cancelling") {
      this.#pendingEnd = end;
      this.#state = "settling";
      this.#throttle.release();
      this.#timers.set(LATE_TOOL_COMPLETION_MS, () => this.#settle());
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
    const mapper = this.#child?.mapper;
    if (end.status === "completed") {
      const check = this.#options.completionCheck?.(mapper?.finalMessage ?? null);
      if (check && !check.ok) {
        this.#fail(check.failure);
        return;
      }
      this.#finish(completedBody(this.#soFar(), check?.ok ? { value: check.value } : undefined));
    } else if (end.status === "interrupted") {
      if (this.#state !== "cancelling") this.#cancelReason = "the turn was interrupted by codex";
      this.#cancelled("interrupted");
    } else {
      this.#fail(turnEndFailure(end, mapper?.lastError ?? null));
    }
  }

  /** The child went away after `initialize` was answered. */
  #onGone(gone: ChildGone): void {
    if (this.#state === "settling") {
      // the turn completed before codex went away: its outcome stands
      this.#settle();
    } else if (this.#state === "cancelling") {
      // codex went away while being interrupted: the caller asked for this end
      this.#cancelled("killed");
    } else {
      this.#fail(goneFailure(gone));
    }
  }

  /** Stamps and pushes one event (see {@link EventStamper}). */
  #emit(body: EventBody): HarnessEvent | null {
    return this.#stamper.emit(body, this.#ownership.turnId);
  }

  #soFar(): TurnSoFar {
    const mapper = this.#child?.mapper;
    return {
      finalMessage: mapper?.finalMessage ?? null,
      usage: mapper?.usage ?? null,
      model: this.#ownership.model,
      threadId: this.#ownership.threadId,
      trust: this.#trust,
    };
  }

  #fail(failure: Failure): void {
    this.#finish(failedBody(this.#soFar(), failure));
  }

  #cancelled(via: CancelledVia): void {
    this.#finish(cancelledBody(this.#soFar(), via, this.#cancelReason));
  }

  /** Emits the one terminal frame (after completing every open tool), then ends the tree and the stream. */
  #finish(body: TerminalBody): void {
    if (this.#state === "ended") return;
    this.#state = "ended";
    this.#throttle.release();
    this.#timers.close();
    const ended = new RennetError("SESSION_ENDED", "the turn has ended");
    this.#lifetime.abort(ended);
    const abandoned = this.#child?.abortAppCalls(body.outcome === "cancelled" ? this.#cancelReason : ended);
    for (const closed of abandoned ?? []) this.#emit(closed);
    for (const closed of this.#child?.mapper.closeOpenTools(undefined) ?? []) this.#emit(closed);
    const terminal = this.#emit(body);
    if (terminal?.type === "terminal") void this.#cleanup(terminal);
  }

  async #cleanup(terminal: TerminalEvent): Promise<void> {
    // a waiting consumer gets the terminal frame before the teardown reads the process table; codex keeps
    // running until its stdin closes, so its tree is the same one event-loop turn later
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.#child?.end();
    this.#channel.close();
    this.#resolveResult(terminal);
  }
}
