import type {
  AppToolApprovalRequest,
  ApprovalDecision,
  ApprovalOptions,
  SteerInput,
  TurnLimits,
} from "../../harness/approvals.js";
import { approvalCancelled } from "../../harness/errors.js";
import type { EventBody, TurnLimit } from "../../harness/events.js";
import { TurnLimiter } from "../../session/limit-watch.js";
import type { TimerSet } from "../../session/timer-set.js";
import { CLAUDE_APP_SERVER } from "../app-tool-uses.js";
import type { ClaudeControlRequestLine } from "../stream-json-lines.js";
import { ClaudeControlRouter } from "./claude-control-router.js";
import { ClaudeSteering, steerContent } from "./claude-steering.js";

/** What the app's part of a turn needs from its runner. */
export interface ClaudeAppLoopHost {
  write(line: Record<string, unknown>): void;
  emit(body: EventBody): void;
  ended(): boolean;
  /** The session's working directory (from `system/init`), once known. */
  cwd(): string | null;
  /** Whether the call has app tools (their own permission prompts are allowed without asking). */
  hasAppTools(): boolean;
  /** Cancels the turn as `cancel()` does. */
  cancel(reason: unknown): void;
  /** Stops the turn at a limit; false when the turn is already ending (it keeps its own end). */
  stopAtLimit(limit: TurnLimit): boolean;
}

/**
 * The app's part of one Claude Code turn: its control requests (approvals, questions, withdrawals), its steers
 * and its limits, each kept in its own class; the runner feeds it Claude's lines and its own state changes.
 */
export class ClaudeAppLoop {
  readonly #control: ClaudeControlRouter;
  readonly #steering = new ClaudeSteering();
  readonly #limits: TurnLimiter;
  readonly #routesApprovals: boolean;

  constructor(options: { approvals?: ApprovalOptions; limits?: TurnLimits }, host: ClaudeAppLoopHost) {
    this.#routesApprovals = options.approvals !== undefined;
    this.#limits = new TurnLimiter(options.limits, (limit) => host.stopAtLimit(limit));
    this.#control = new ClaudeControlRouter(options.approvals, {
      write: (line) => host.write(line),
      emit: (body) => host.emit(body),
      ended: () => host.ended(),
      cwd: () => host.cwd(),
      isAppTool: (name) => host.hasAppTools() && name.startsWith(`mcp__${CLAUDE_APP_SERVER}__`),
      cancelledByHandler: () => host.cancel(approvalCancelled()),
      now: () => performance.now(),
    });
  }

  /** The limit that stopped the turn, if one did. */
  get limitHit(): TurnLimit | null {
    return this.#limits.hit;
  }

  /** The duration limit's timer, counted from `startedAt` (`performance.now()` when the session began). */
  start(timers: TimerSet, startedAt?: number): void {
    this.#limits.start(timers, startedAt);
  }

  /** One stdout line of Claude, before it is mapped: steer acknowledgements and withdrawn requests. */
  onLine(frame: Record<string, unknown>): void {
    if (frame.type === "command_lifecycle") this.#steering.onLifecycle(frame);
    if (frame.type === "control_cancel_request" && typeof frame.request_id === "string")
      this.#control.withdraw(frame.request_id);
  }

  /** The turn's `system/init` came: steers may be sent. */
  turnStarted(): void {
    this.#steering.turnStarted();
  }

  /** One event of the turn, checked against the limits. */
  observe(body: EventBody): void {
    this.#limits.observe(body);
  }

  /**
   * With `approvals`: asks the app's handler about one of its own tools' calls (the audit events record it).
   * Undefined without `approvals`: app tools then run unasked.
   */
  get approveAppTool(): ((request: AppToolApprovalRequest) => Promise<ApprovalDecision | null>) | undefined {
    if (!this.#routesApprovals) return undefined;
    return (request) => this.#control.decide(request);
  }

  /** A control request no app tool serves: answered by default or by the app's handlers. */
  handle(request: ClaudeControlRequestLine): void {
    this.#control.handle(request);
  }

  /** The turn is ending (`why`): steers not taken in reject; pending handlers are answered `cancel`. */
  ending(why: string, reason: unknown): void {
    this.#steering.end(why);
    this.#control.cancelPending(reason);
  }

  /** The turn's `result` came: steers not taken in reject (Claude would run them as a new turn). */
  resultCame(): void {
    this.#steering.end("the turn's result came");
  }

  /**
   * Sends guidance into the running turn: a user message with a uuid, resolved once Claude took it into the
   * running turn (`command_lifecycle` `started`). Waits while the turn is starting; `turn.target()` is the
   * session while the turn runs, else null. Rejects with `SteerError`: `TURN_NOT_RUNNING` (ended, ending, never
   * started, or the turn's `result` came before Claude took it in), `STEER_UNSUPPORTED` (Claude Code without
   * `command_lifecycle`), `STEER_REFUSED`, `STEER_INPUT_INVALID`.
   */
  async steer(
    input: string | readonly SteerInput[],
    cwd: string,
    turn: {
      target(): { write(line: Record<string, unknown>): void } | null;
      version(): string | null;
      state(): string;
    },
  ): Promise<void> {
    const content = await steerContent(input, cwd);
    await this.#steering.started;
    return this.#steering.send(content, turn.version(), turn.state(), turn.target());
  }
}
