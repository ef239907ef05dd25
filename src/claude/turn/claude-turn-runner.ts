import type { EventBody, Failure, HarnessEvent, TerminalEvent } from "../../harness/events.js";
import { DEFAULT_INTERRUPT_GRACE_MS } from "../../session/interrupt-grace.js";
import type { HarnessSession } from "../../harness/session.js";
import { RennetError } from "../../errors.js";
import { steerWithoutRunner } from "../../session/deferred-session.js";
import type { SteerInput } from "../../harness/approvals.js";
import type { ChildGone, ChildSession } from "../../session/child-session.js";
import { ENDED, SessionCore } from "../../session/session-core.js";
import { limitReached } from "../../session/limit-watch.js";
import { TerminalBodies } from "../../session/terminal-body.js";
import type { ClaudeEventMapper } from "../event-mapper.js";
import { endSessionRequest, interruptRequest, userMessage } from "../stdin-messages.js";
import type { ClaudeResultLine } from "../stream-json-lines.js";
import { turnEndOfResult } from "../turn-end.js";
import {
  appToolsRefusedFailure,
  goneFailure,
  invalidLineFailure,
  prepareFailure,
  structuredOutputRefusedFailure,
  schemaRefusedFailure,
  unusableVersionFailure,
} from "./claude-turn-failures.js";
import {
  MAX_STRUCTURED_OUTPUT_REMINDERS,
  type ClaudeTurnRunnerOptions,
  type PreparedClaudeTurn,
} from "./claude-turn-options.js";
import { checkedStructuredOutput, StructuredOutputWatch } from "./structured-output-watch.js";
import type { ClaudeAppLoop } from "./claude-app-loop.js";
import type { ClaudeAppTools } from "./claude-app-tools.js";
import type { ClaudeTurnProtocol } from "./claude-turn-protocol.js";
import { ControlRequestIds } from "./control-request-ids.js";

/**
 * Where a session is: `starting` (preparing the launch), `running` (child spawned, prompt written), `cancelling`
 * (the `interrupt` control request sent, waiting for the interrupted `result` within the grace), `ended` (the
 * terminal frame is out; nothing else is emitted).
 */
type RunnerState = "starting" | "running" | "cancelling" | "ended";

/**
 * Runs one Claude Code turn in one `claude -p` child in stream-json mode as a {@link HarnessSession}: the prompt
 * on stdin, every stdout line mapped ({@link ClaudeEventMapper}), control requests answered by the app tools or
 * {@link ClaudeAppLoop}; the `result` (or a departure, a bad line, the deadline, a cancel, a limit) becomes
 * exactly one terminal frame, then the session is ended and the whole process tree killed. The mapper and the
 * app loop (the protocol half, `options.loadProtocol`) load once the child is spawned, while Claude Code starts;
 * until then no line is read and no turn exists.
 */
export class ClaudeTurnRunner implements HarnessSession {
  readonly id: string;
  readonly result: Promise<TerminalEvent>;
  readonly #options: ClaudeTurnRunnerOptions;
  /** The stream, the timers, the read throttle and the lifetime (see {@link SessionCore}). */
  readonly #core: SessionCore;
  /** The protocol half: null until it is loaded and built (see {@link #protocol}). */
  #mapper: ClaudeEventMapper | null = null;
  #app: ClaudeAppLoop | null = null;
  #building: Promise<ClaudeTurnProtocol> | null = null;
  /** The terminal body: what the turn produced, the trust, the cancel reason. */
  readonly #outcome: TerminalBodies;
  #appTools: ClaudeAppTools | null = null;
  #state: RunnerState = "starting";
  #command: string;
  #prepared: PreparedClaudeTurn | null = null;
  #session: ChildSession | null = null;
  readonly #requestIds = new ControlRequestIds();
  readonly #structured = new StructuredOutputWatch();
  /** Set when Rennet stopped a structured-output turn whose model would not answer: its failure. */
  #refusal: Failure | null = null;

  constructor(options: ClaudeTurnRunnerOptions) {
    this.#options = options;
    this.#command = options.command;
    // stopped by a limit, the final message is the text streamed so far
    const outcome = (this.#outcome = new TerminalBodies(
      () => {
        const mapper = this.#mapper;
        return {
          finalMessage: (this.#app?.limitHit ? mapper?.partialMessage : null) ?? mapper?.finalMessage ?? null,
          usage: mapper?.usage ?? null,
          model: mapper?.model ?? null,
          threadId: mapper?.sessionId ?? null,
        };
      },
      () => this.#app?.limitHit ?? null,
    ));
    outcome.trust = options.trust ?? null;
    const core = (this.#core = new SessionCore({
      harness: "claude-code",
      sessionId: options.sessionId,
      now: options.now,
      cancel: (reason) => this.cancel(reason),
      turnId: () => this.#mapper?.turnId ?? null,
      // the limits are checked against each event; the stop may end the session at once
      observe: (body) => this.#app?.observe(body),
      outcome,
      ending: () => {
        this.#app?.ending("the turn has ended", new RennetError("SESSION_ENDED", "the turn has ended"));
        this.#state = "ended";
      },
      closeTools: (reason) => this.#closeTools(reason),
      teardown: () => this.#teardown(),
    }));
    this.id = core.id;
    this.result = core.result;
    if (core.follow(options.signal)) void this.#run();
  }

  get events(): AsyncIterable<HarnessEvent> {
    return this.#core.channel;
  }

  /** The reason given to `cancel()` (or the signal's reason), preserved as passed. */
  get cancelReason(): unknown {
    return this.#outcome.cancelReason;
  }

  /** Sends guidance into the running turn (see {@link ClaudeAppLoop.steer}). */
  async steer(input: string | readonly SteerInput[]): Promise<void> {
    const { app, mapper } = await this.#protocol().catch((error: unknown) => {
      throw steerWithoutRunner(error);
    });
    return app.steer(input, this.#options.cwd ?? process.cwd(), {
      target: () => (this.#state === "running" && mapper.result === null ? this.#session : null),
      version: () => mapper.harnessVersion,
      state: () => this.#state,
    });
  }

  /**
   * Cancels the turn: once Claude started it (its `system/init`), the `interrupt` control request and up to the
   * interrupt grace for the interrupted `result`, then the kill; before that, the kill at once. A turn whose
   * `result` came gets no interrupt. Pending approval handlers are answered `cancel` first. Idempotent.
   */
  cancel(reason?: unknown): void {
    const mapper = this.#mapper;
    if (this.#state === "ended" || this.#state === "cancelling" || (mapper?.result ?? null) !== null) return;
    this.#outcome.cancelReason = reason;
    if (this.#session === null || mapper === null || mapper.turnId === null) {
      this.#core.cancelled("before-turn");
      return;
    }
    this.#interrupt(() => this.#core.cancelled("killed"));
  }

  /** Sends `interrupt`, reads on, and runs `onGrace` if no `result` came within the grace. */
  #interrupt(onGrace: () => void): void {
    this.#state = "cancelling";
    this.#core.throttle.release();
    this.#app?.ending("the turn is being cancelled", this.#outcome.cancelReason);
    this.#session?.write(interruptRequest(this.#requestIds.next()));
    for (const closed of this.#appTools?.abortAll(this.#outcome.cancelReason) ?? []) this.#core.emit(closed);
    this.#core.timers.set(this.#options.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS, onGrace);
  }

  async #run(): Promise<void> {
    // the duration limit counts from here, though the app loop that watches it is built after the spawn
    const startedAt = performance.now();
    this.#core.armDeadline(this.#options.turnMs);
    let prepared: PreparedClaudeTurn;
    try {
      const preparing = this.#options.prepare(this.#core.signal);
      // whatever `prepare` made is removed even when the session ended while it ran
      preparing.then(
        (p) => (this.#state === "ended" && this.#prepared === null ? p.cleanup() : undefined),
        () => undefined,
      );
      prepared = await Promise.race([preparing, this.#core.ended]);
    } catch (error) {
      if (error !== ENDED) this.#core.fail(prepareFailure(error, this.#command));
      return;
    }
    if (this.#state === "ended") return;
    this.#prepared = prepared;
    this.#command = prepared.spec.command;
    const session = (this.#session = prepared.startChild({
      launcher: prepared.launcher,
      spec: prepared.spec,
      throttle: this.#core.throttle,
      timers: this.#core.timers,
      onGone: (gone) => this.#onGone(gone),
    }));
    this.#state = "running";
    const prompt = userMessage({ text: this.#options.prompt, images: prepared.images });
    const tools = this.#options.tools;
    // Claude Code reads its stdin once it has started: the prompt waits in the pipe meanwhile
    if (tools == null) session.write(prompt);
    let protocol: ClaudeTurnProtocol;
    try {
      protocol = await Promise.race([this.#protocol(), this.#core.ended]);
    } catch (error) {
      if (error !== ENDED) this.#core.fail(prepareFailure(error, this.#command));
      return;
    }
    if (this.#hasEnded()) return;
    protocol.app.start(this.#core.timers, startedAt);
    if (tools != null) {
      const live = (): boolean => this.#state !== "ended";
      this.#appTools = protocol.openAppTools({
        tools,
        sessionId: this.id,
        mapper: protocol.mapper,
        emit: (body) => void (live() && this.#core.emit(body)),
        write: (line) => live() && session.write(line),
        approve: protocol.app.approveAppTool,
        cancelTurn: (reason) => this.cancel(reason),
      });
    }
    session.read({
      frame: (frame) => this.#onLine(frame),
      invalid: (message, line) => {
        if (this.#state !== "ended") this.#core.fail(invalidLineFailure(message, line));
      },
      closed: () => undefined,
    });
    this.#appTools?.begin(this.#requestIds.next(), prompt);
  }

  /** Whether the terminal frame is out (a check after an await, which may have ended the session). */
  #hasEnded(): boolean {
    return this.#state === "ended";
  }

  /** Loads the protocol half (once per process) and builds this session's mapper and app loop (once). */
  #protocol(): Promise<ClaudeTurnProtocol> {
    this.#building ??= this.#options.loadProtocol().then(({ openClaudeTurnProtocol }) => {
      const options = { ...this.#options, requestIds: this.#requestIds };
      const protocol = openClaudeTurnProtocol(options, {
        write: (line) => this.#session?.write(line),
        emit: (body) => void this.#core.emit(body),
        ended: () => this.#state === "ended",
        cwd: () => this.#mapper?.cwd ?? null,
        hasAppTools: () => this.#appTools !== null,
        cancel: (reason) => this.cancel(reason),
        // a limit cancels a turn not already ending, as `cancel()` does; its terminal names it
        stopAtLimit: (limit) =>
          this.#state === "running" &&
          this.#mapper?.result === null &&
          (this.cancel(limitReached(limit)), true),
      });
      this.#mapper = protocol.mapper;
      this.#app = protocol.app;
      // built by a steer after the session ended: that steer rejects at once
      if (this.#state === "ended") protocol.app.ending("the turn has ended", null);
      return protocol;
    });
    return this.#building;
  }

  #onLine(frame: Record<string, unknown>): void {
    const mapper = this.#mapper;
    const app = this.#app;
    if (this.#state === "ended" || mapper === null || app === null) return;
    app.onLine(frame);
    const mapped = mapper.map(frame);
    if (mapped.init) {
      const approvals = this.#options.approvals !== undefined; // refused by a release that would not ask
      const unusable =
        unusableVersionFailure(mapper.harnessVersion, approvals, this.#command) ??
        (this.#options.structuredOutput ? schemaRefusedFailure(mapped.init.tools) : null);
      if (unusable !== null) {
        // the turn has begun: stop it at once, before the end of the tree (stdin EOF alone does not stop it)
        this.#session?.write(interruptRequest(this.#requestIds.next()));
        this.#core.fail(unusable);
        return;
      }
      this.#core.emit(
        mapper.sessionStartedBody({ pid: this.#session?.pid ?? null, trust: this.#options.trust }),
      );
      app.turnStarted();
    }
    for (const body of mapped.events) this.#core.emit(body);
    const refused = mapped.controlResponse && this.#appTools?.answered(mapped.controlResponse);
    if (refused) this.#core.fail(appToolsRefusedFailure(refused.error));
    if (mapped.controlRequest && this.#appTools?.handles(mapped.controlRequest))
      this.#appTools.serve(mapped.controlRequest);
    else if (mapped.controlRequest) app.handle(mapped.controlRequest);
    if (this.#options.structuredOutput && this.#structured.observe(frame)) this.#onReminder();
    if (mapped.result) this.#onResult(mapped.result);
  }

  /** A structured-output reminder: past the bound, the turn is interrupted and fails. */
  #onReminder(): void {
    const { reminders, rejection } = this.#structured;
    if (reminders < MAX_STRUCTURED_OUTPUT_REMINDERS || this.#refusal !== null) return;
    const failure = (this.#refusal = structuredOutputRefusedFailure(reminders, rejection));
    if (this.#state === "cancelling") return;
    this.#interrupt(() => this.#core.fail(failure));
  }

  #onResult(result: ClaudeResultLine): void {
    this.#app?.resultCame();
    if (this.#refusal !== null) {
      this.#core.fail(this.#refusal);
      return;
    }
    const outcome = this.#outcome;
    const check = this.#options.structuredOutput;
    const interrupted = this.#state === "cancelling";
    const end = turnEndOfResult(result, {
      interruptReason: interrupted ? "cancelled" : null,
      structuredOutput: check !== undefined,
      structuredOutputRejection: this.#structured.rejection,
      resumed: this.#options.resumes !== undefined,
      ...(this.#options.maxBudgetUsd !== undefined ? { maxBudgetUsd: this.#options.maxBudgetUsd } : {}),
    });
    if (end.outcome === "failed") this.#core.fail(end.failure);
    else if (end.outcome === "cancelled")
      this.#core.finish(
        end.cancellation.reason === "limit"
          ? outcome.cancelled("interrupted", end.cancellation)
          : outcome.interrupted(interrupted, "the turn was interrupted by claude"),
      );
    else if (check === undefined) this.#core.finish(outcome.completed());
    else {
      const checked = checkedStructuredOutput(check, end.structuredOutput);
      if (checked.ok) this.#core.finish(outcome.completed({ value: checked.value }));
      else this.#core.fail(checked.failure);
    }
  }

  /** The child went away before the terminal frame. */
  #onGone(gone: ChildGone): void {
    if (this.#state === "ended") return;
    if (this.#state === "cancelling" && this.#refusal !== null) this.#core.fail(this.#refusal);
    else if (this.#state === "cancelling") this.#core.cancelled("killed");
    else this.#core.fail(goneFailure(gone, this.#command));
  }

  /** The app tools' calls still running are aborted with `reason`, then every tool still open is completed. */
  *#closeTools(reason: unknown): Iterable<EventBody> {
    yield* this.#appTools?.abortAll(reason) ?? [];
    yield* this.#mapper?.closeOpenTools() ?? [];
  }

  /** After the terminal frame: claude is asked to end, then its tree; what `prepare` made is removed. */
  async #teardown(): Promise<void> {
    const session = this.#session;
    if (session !== null) {
      // Claude exits at once on end_session and stops its background tasks; then the tree walk kills the rest
      if ((this.#mapper?.result ?? null) !== null) session.write(endSessionRequest(this.#requestIds.next()));
      await session.end();
    }
    await this.#prepared?.cleanup().catch(() => undefined);
  }
}
