import path from "node:path";
import type { EventBody, Failure, HarnessEvent, ProjectTrust, TerminalEvent } from "../../harness/events.js";
import type { EventChannel } from "../../harness/event-channel.js";
import { onAbort } from "../../harness/on-abort.js";
import type { HarnessSession } from "../../harness/session.js";
import { isRennetError, RennetError } from "../../errors.js";
import type { RequestTimeoutError } from "../../jsonl/errors.js";
import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import type { StdioChild, Launcher, LaunchSpec, ProcessExit } from "../../process/stdio-child.js";
import { lazyModule } from "../../load-module.js";
import { launchExecutable } from "../../discovery/executable-launch.js";
import { ChildDeparture } from "../../session/child-departure.js";
import { EventStamper } from "../../session/event-stamper.js";
import { isoClock } from "../../session/iso-clock.js";
import { planLaunch, type LaunchPlan } from "./launch-plan.js";
import type { TurnEventMapper, TurnEnd } from "./event-mapper.js";
import { ReadThrottle } from "../../session/read-throttle.js";
import {
  isStateDbRace,
  STATE_DB_RACE_STARTS,
  STATE_DB_RACE_WARNING,
  stateDbRaceRetryDelayMs,
} from "../versions/state-db-race.js";
import { TimerSet } from "../../session/timer-set.js";
import {
  deadlineFailure,
  exitFailure,
  invalidLineFailure,
  prepareFailure,
  refusedFailure,
  spawnErrorFailure,
  stalledFailure,
  startFailure,
  turnEndFailure,
  unexpectedFailure,
} from "./turn-failures.js";
import {
  cancelledBody,
  completedBody,
  failedBody,
  type CancelledVia,
  type TerminalBody,
  type TurnSoFar,
} from "../../session/terminal-body.js";
import { TurnOwnership } from "./turn-ownership.js";
import type * as TurnProtocol from "./turn-protocol.js";
import {
  DEFAULT_INTERRUPT_GRACE_MS,
  DEFAULT_TIMEOUTS,
  LATE_TOOL_COMPLETION_MS,
  type PreparedLaunch,
  type RunnerState,
  type TurnRunnerOptions,
  type TurnTimeouts,
} from "./turn-runner-options.js";
import { randomUuid } from "../../random-id.js";

/** Rejection of every pending step once the session has ended. */
const ENDED: unique symbol = Symbol("ended");

/** The protocol half of a turn, loaded once per process, on the first spawn (see `turn-protocol.ts`). */
const loadTurnProtocol = lazyModule<typeof TurnProtocol>(
  new URL("./turn-protocol.js", import.meta.url),
  () => import("./turn-protocol.js"),
);

/**
 * Runs one Codex turn in one app-server child and exposes it as a {@link HarnessSession}.
 * Owns the child: whatever ends the turn, the terminal event is emitted once and the process tree is killed.
 */
export class CodexTurnRunner implements HarnessSession {
  readonly id: string;
  readonly result: Promise<TerminalEvent>;
  readonly #options: TurnRunnerOptions;
  readonly #timeouts: TurnTimeouts;
  readonly #channel: EventChannel<HarnessEvent>;
  readonly #ownership = new TurnOwnership();
  /** Created with the first connection (the protocol half is loaded by then); null before. */
  #mapper: TurnEventMapper | null = null;
  readonly #timers = new TimerSet();
  /** How the current child goes away; one per started child. */
  #departure = new ChildDeparture(this.#timers, () => undefined);
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
  #proc: StdioChild | null = null;
  #conn: JsonRpcConnection | null = null;
  #plan: LaunchPlan | null = null;
  #launcher: Launcher | null = null;
  /** How many children this session has started; events of any but the last are ignored. */
  #starts = 0;
  /** Set once the current child answered `initialize`. */
  #initialized = false;
  /** The terminations of children started before the current one (see {@link #restartAfterStateDbRace}). */
  readonly #retired: Promise<void>[] = [];
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
    this.#channel = this.#throttle.channel(() => this.cancel(new Error("the event consumer stopped")));
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
    const conn = this.#conn;
    if (turnId === null || threadId === null || conn === null) {
      this.#cancelled("before-turn");
      return;
    }
    this.#state = "cancelling";
    // the interrupted turn/completed comes behind whatever codex wrote before it: read it all
    this.#throttle.release();
    conn.request("turn/interrupt", { threadId, turnId }).catch(() => {
      // an error answer or a closed connection: the grace timer or the exit handlers end the turn
    });
    this.#timers.set(this.#options.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS, () =>
      this.#cancelled("killed"),
    );
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
    try {
      this.#plan = await this.#until(this.#prepareLaunch());
    } catch (error) {
      if (error !== ENDED) this.#fail(prepareFailure(error, this.#command));
      return;
    }
    this.#startChild();
  }

  /**
   * Starts a child for the planned launch, then loads the protocol half (while codex starts), connects and runs
   * the start sequence.
   */
  #startChild(): void {
    const launch = this.#plan;
    const launcher = this.#launcher;
    if (launch === null || launcher === null || this.#state === "ended") return;
    const proc = this.#launch(launcher, launch.spec);
    this.#state = "handshaking";
    void this.#startTurn(proc, launch, this.#starts);
  }

  async #startTurn(proc: StdioChild, launch: LaunchPlan, start: number): Promise<void> {
    let protocol: typeof TurnProtocol;
    try {
      protocol = await this.#until(loadTurnProtocol());
    } catch (error) {
      if (error !== ENDED && start === this.#starts) this.#fail(unexpectedFailure(error));
      return;
    }
    if (start !== this.#starts) return;
    const conn = this.#connect(proc, protocol, start);
    try {
      await protocol.startTurn({
        conn,
        cwd: launch.protocolCwd,
        local: { cwd: this.#cwd, env: this.#options.env ?? process.env },
        request: this.#options,
        mcpThreadConfig: launch.mcpThreadConfig,
        timeouts: this.#timeouts,
        ownership: this.#ownership,
        until: (step) => this.#until(step),
        ended: () => this.#state === "ended",
        onInitialized: () => {
          if (start === this.#starts) this.#initialized = true;
        },
        onTrust: (trust) => {
          this.#trust = trust;
        },
        onRefused: (error) => this.#fail(refusedFailure(error)),
        onNoThread: (line) =>
          this.#fail({ source: "parse", message: "thread/start returned no thread id", line }),
        onSessionStarted: (started) => this.#emit({ ...started, pid: this.#proc?.pid ?? null }),
      });
      if (this.#state === "handshaking") this.#state = "running";
    } catch (error) {
      if (error === ENDED || start !== this.#starts) return;
      // a child already going away is reported by its departure (exit code, signal, stderr), not the request
      const departing = this.#departure.departing;
      if (!departing && isRennetError(error, "REQUEST_TIMEOUT")) {
        const stalled = error as RequestTimeoutError;
        if (stalled.method === "initialize") {
          // codex may explain itself only at stdin EOF: the failure waits for its exit (bounded)
          this.#departure.stalledHandshake(stalled, () => this.#proc?.transport.endOutput());
          return;
        }
      }
      const failure = startFailure(error, this.#command, departing);
      if (failure) this.#fail(failure);
    }
  }

  /** Runs `prepare` (or takes the given codex) and plans the launch. */
  async #prepareLaunch(): Promise<LaunchPlan> {
    const prepared: PreparedLaunch = this.#options.prepare
      ? await this.#options.prepare(this.#lifetime.signal)
      : { codex: this.#options.codex ?? { type: "native", command: "codex" }, appServerArgs: [] };
    this.#command = launchExecutable(prepared.codex);
    this.#launcher = prepared.launcher ?? this.#options.launcher ?? null;
    if (this.#launcher === null)
      throw new RennetError("INTERNAL_ERROR", "no launcher: the runner options and prepare gave none");
    return planLaunch(prepared, {
      cwd: this.#cwd,
      env: this.#options.env ?? process.env,
      appServerArgs: this.#options.appServerArgs ?? [],
    });
  }

  /** Starts the child; its exit is handled only while it is the session's current child. */
  #launch(launcher: Launcher, spec: LaunchSpec): StdioChild {
    const start = ++this.#starts;
    this.#initialized = false;
    this.#conn = null;
    this.#departure = new ChildDeparture(this.#timers, () => {
      if (start === this.#starts && this.#state !== "ended") this.#finishWithExit();
    });
    const proc = launcher(spec);
    this.#proc = proc;
    this.#throttle.attach(proc.transport);
    void proc.exit.then((exit) => {
      if (start === this.#starts) this.#onExit(exit);
    });
    return proc;
  }

  /**
   * Connects to child number `start` (codex's output is read from here on); every handler is inert once the
   * session has ended or a later child has been started.
   */
  #connect(proc: StdioChild, protocol: typeof TurnProtocol, start: number): JsonRpcConnection {
    const current = (): boolean => start === this.#starts && this.#state !== "ended";
    const mapper = (this.#mapper ??= new protocol.TurnEventMapper(this.#ownership));
    const live =
      <A extends unknown[]>(fn: (...args: A) => void) =>
      (...args: A): void => {
        if (current()) fn(...args);
      };
    const conn: JsonRpcConnection = new protocol.JsonRpcConnection(proc.transport, {
      notification: live((frame) => {
        const mapped = mapper.mapNotification(frame.method, frame.params, frame.frame);
        for (const body of mapped.events) this.#emit(body);
        if (frame.method === "turn/started" && this.#state === "handshaking" && this.#ownership.turnId)
          this.#state = "running";
        if (mapped.ended) this.#onTurnEnded(mapped.ended);
        else if (this.#state === "settling" && mapper.openToolCount === 0) this.#settle();
      }),
      request: live((frame) => this.#emit(protocol.answerRequest(conn, frame))),
      stray: live((frame, why) => {
        for (const body of mapper.mapStray(frame, why)) this.#emit(body);
      }),
      invalid: live((message, line) => {
        // a turn that already completed keeps its outcome: what codex writes after it cannot change it
        if (this.#state === "settling") this.#settle();
        else this.#fail(invalidLineFailure(message, line));
      }),
      closed: live((reason) => this.#departure.outputClosed(reason)),
    });
    this.#conn = conn;
    return conn;
  }

  #onTurnEnded(end: TurnEnd): void {
    if ((this.#mapper?.openToolCount ?? 0) > 0 && this.#state !== "cancelling") {
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
    if (end.status === "completed") {
      const check = this.#options.completionCheck?.(this.#mapper?.finalMessage ?? null);
      if (check && !check.ok) {
        this.#fail(check.failure);
        return;
      }
      this.#finish(completedBody(this.#soFar(), check?.ok ? { value: check.value } : undefined));
    } else if (end.status === "interrupted") {
      if (this.#state !== "cancelling") this.#cancelReason = "the turn was interrupted by codex";
      this.#cancelled("interrupted");
    } else {
      this.#fail(turnEndFailure(end, this.#mapper?.lastError ?? null));
    }
  }

  #onExit(exit: ProcessExit): void {
    // an exited child writes no more: what its stdout still holds is bounded and must be read before the wait ends
    this.#throttle.release();
    if (this.#state === "ended") return;
    if (exit.type === "spawn-error") this.#fail(spawnErrorFailure(exit, this.#command));
    else this.#departure.exited(exit);
  }

  #finishWithExit(): void {
    const { exit, closed } = this.#departure;
    if (this.#state === "ended") return;
    if (this.#state === "settling") {
      // the turn completed before codex went away: its outcome stands
      this.#settle();
      return;
    }
    if (this.#state === "cancelling") {
      // codex went away while being interrupted: the caller asked for this end
      this.#cancelled("killed");
      return;
    }
    if (this.#restartAfterStateDbRace()) return;
    const stalled = this.#departure.stalled;
    if (stalled) {
      this.#fail(stalledFailure(stalled, this.#proc?.stderrTail() ?? ""));
      return;
    }
    const writeError = closed?.type === "write-error" ? closed.message : null;
    this.#fail(exitFailure(exit, writeError, this.#proc?.stderrTail() ?? ""));
  }

  /**
   * A child that exited before answering `initialize` because another codex was migrating the same state
   * database (see `state-db-race.ts`) is replaced by a new one after a short wait, up to
   * {@link STATE_DB_RACE_STARTS} starts; a `warning` says so. Nothing had been asked of it but `initialize`.
   * Returns whether it was.
   */
  #restartAfterStateDbRace(): boolean {
    const proc = this.#proc;
    const exit = this.#departure.exit;
    if (this.#state !== "handshaking" || this.#initialized || this.#departure.stalled || proc === null)
      return false;
    if (exit?.type !== "exited" || this.#starts >= STATE_DB_RACE_STARTS) return false;
    const stderr = proc.stderrTail();
    if (!isStateDbRace(stderr)) return false;
    this.#retired.push(proc.terminate().catch(() => undefined));
    this.#conn?.close();
    const delayMs = stateDbRaceRetryDelayMs(this.#starts);
    this.#emit({
      type: "warning",
      method: STATE_DB_RACE_WARNING,
      message:
        `codex app-server exited with code ${exit.code} before answering initialize: its state database was ` +
        `being initialized by another codex starting at the same time; starting it again in ${delayMs} ms ` +
        `(start ${this.#starts + 1} of at most ${STATE_DB_RACE_STARTS})`,
      native: { exitCode: exit.code, signal: exit.signal, stderrTail: stderr },
    });
    this.#timers.set(delayMs, () => this.#startChild());
    return true;
  }

  /** Stamps and pushes one event (see {@link EventStamper}). */
  #emit(body: EventBody): HarnessEvent | null {
    return this.#stamper.emit(body, this.#ownership.turnId);
  }

  #soFar(): TurnSoFar {
    return {
      finalMessage: this.#mapper?.finalMessage ?? null,
      usage: this.#mapper?.usage ?? null,
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
    this.#lifetime.abort(new Error("the turn has ended"));
    for (const closed of this.#mapper?.closeOpenTools(undefined) ?? []) this.#emit(closed);
    const terminal = this.#emit(body);
    if (terminal?.type === "terminal") void this.#cleanup(terminal);
  }

  async #cleanup(terminal: TerminalEvent): Promise<void> {
    // a waiting consumer gets the terminal frame before the teardown reads the process table; codex keeps
    // running until its stdin closes, so its tree is the same one event-loop turn later
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      await Promise.all([...this.#retired, this.#proc?.terminate()]);
    } catch {
      // terminate is best-effort by contract; a failure here must not hide the terminal outcome
    }
    this.#conn?.close();
    this.#channel.close();
    this.#resolveResult(terminal);
  }
}
