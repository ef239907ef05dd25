/**
 * The app's side of an agent's requests, whatever the harness: an approval request or a question read into the
 * harness-neutral types goes to the app's handler under the deadline, its answer is checked, and the outcome is
 * recorded (`approval.requested`, `approval.resolved`). The harness writes the reply on its own wire.
 */
import type {
  ApprovalDecider,
  ApprovalDecision,
  ApprovalOptions,
  ApprovalRequest,
  ElicitationAnswer,
  ElicitationRequest,
  UserInputAnswers,
  UserInputRequest,
} from "../harness/approvals.js";
import type { EventBody } from "../harness/events.js";
import { errorMessage, RennetError } from "../errors.js";
import { valueText } from "../value-text.js";

/** An approval request and how each decision is written on the harness's wire. */
export interface RoutedApproval {
  type: "approval";
  request: ApprovalRequest;
  reply(decision: ApprovalDecision): unknown;
}
/** A question of the agent; `reply({})` is the answer without answers. */
export interface RoutedUserInput {
  type: "userInput";
  request: UserInputRequest;
  reply(answers: UserInputAnswers): unknown;
}
export interface RoutedElicitation {
  type: "elicitation";
  request: ElicitationRequest;
  reply(answer: ElicitationAnswer): unknown;
}
export type RoutedRequest = RoutedApproval | RoutedUserInput | RoutedElicitation;

/** The reply a settled request gets on the wire; null when the agent withdrew it (nothing is written). */
export type SettledReply = { body: unknown } | null;

/** What the broker needs from its turn. */
export interface AppRequestHost {
  emit(body: EventBody): void;
  /** Whether the turn has ended: nothing more is emitted or answered. */
  ended(): boolean;
  /** Monotonic milliseconds. */
  now(): number;
}

interface Pending {
  routed: RoutedRequest;
  startedAt: number;
  controller: AbortController;
  timer: NodeJS.Timeout | null;
  answer(reply: SettledReply): void;
}

/** How a pending request came to be answered. */
type Outcome =
  | { by: "handler"; answer: unknown; error?: undefined }
  | { by: "default"; error: string }
  | { by: "deadline"; timeoutMs: number; error?: undefined }
  | { by: "cancel"; reason: unknown; withdrawn?: boolean; error?: undefined };

/** What a handler's signal is aborted with. */
function abortReason(outcome: Outcome): unknown {
  if (outcome.by === "cancel") return outcome.reason;
  if (outcome.by === "deadline")
    return new RennetError("APPROVAL_DEADLINE", `the handler did not answer within ${outcome.timeoutMs} ms`);
  return new RennetError("APPROVAL_ANSWERED", "the request has been answered");
}

/** Whether the app has a handler for a routed request (`onRequest` always; questions when given). */
export function hasHandler(approvals: ApprovalOptions, routed: RoutedRequest): boolean {
  if (routed.type === "userInput") return approvals.onUserInput !== undefined;
  if (routed.type === "elicitation") return approvals.onElicitation !== undefined;
  return true;
}

/**
 * Pending app requests of one turn, keyed by the harness's request id. Handlers run concurrently; each request is
 * settled exactly once: by its handler (checked), by `default` after a throw or an invalid answer, by the
 * deadline, or by `cancel` (the turn ends, or the agent withdrew the request).
 */
export class AppRequestBroker {
  readonly #approvals: ApprovalOptions;
  readonly #host: AppRequestHost;
  readonly #pending = new Map<string, Pending>();
  /** Set by {@link cancelPending}: the turn is ending, and a request that arrives now never reaches a handler. */
  #closing: { reason: unknown } | null = null;

  constructor(approvals: ApprovalOptions, host: AppRequestHost) {
    this.#approvals = approvals;
    this.#host = host;
  }

  /** Requests still waiting for an app handler. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /**
   * Sends one routed request to its handler; `answer` writes the settled reply on the harness's wire. Once the
   * turn is being cancelled (see {@link cancelPending}) the request is recorded and answered as cancelled at
   * once: its handler is not called. Returns false, doing nothing, when a request of the same `key` is still
   * pending: the first keeps its handler and its answer, and the caller refuses the duplicate on its wire.
   */
  submit(key: string, routed: RoutedRequest, answer: (reply: SettledReply) => void): boolean {
    if (this.#host.ended()) return true;
    if (this.#pending.has(key)) return false;
    const pending: Pending = {
      routed,
      startedAt: this.#host.now(),
      controller: new AbortController(),
      timer: null,
      answer,
    };
    this.#pending.set(key, pending);
    if (routed.type === "approval")
      this.#host.emit({ type: "approval.requested", requestId: routed.request.id, request: routed.request });
    if (this.#closing !== null) {
      this.#settle(key, { by: "cancel", reason: this.#closing.reason });
      return true;
    }
    const timeoutMs = this.#approvals.timeoutMs;
    if (timeoutMs !== undefined)
      pending.timer = setTimeout(() => this.#settle(key, { by: "deadline", timeoutMs }), timeoutMs);
    this.#callHandler(pending).then(
      (result) => this.#settle(key, { by: "handler", answer: result }),
      (error: unknown) => this.#settle(key, { by: "default", error: errorMessage(error) }),
    );
    return true;
  }

  /**
   * Asks the app about a request Rennet itself serves (an app tool call): the same handler, deadline and audit
   * events as a harness's request. Resolves with the decision, `cancel` when the turn ended first, or null
   * when it ended before the request was submitted.
   */
  decide(request: ApprovalRequest): Promise<ApprovalDecision | null> {
    return new Promise((resolve) => {
      if (this.#host.ended()) return resolve(null);
      const routed: RoutedApproval = { type: "approval", request, reply: (decision) => decision };
      const submitted = this.submit(`${request.kind}:${request.id}`, routed, (reply) =>
        resolve(reply === null ? null : (reply.body as ApprovalDecision)),
      );
      // a second call of an id still being asked about is not asked again: it is declined
      if (!submitted) resolve("decline");
    });
  }

  /**
   * The turn is being cancelled or has ended: every pending handler's signal is aborted with `reason`, and each
   * request is answered (`cancel` for an approval, no answers for a question) and recorded; so is every request
   * that arrives from now on (the first `reason` stays), without its handler.
   */
  cancelPending(reason: unknown): void {
    this.#closing ??= { reason };
    for (const key of [...this.#pending.keys()]) this.#settle(key, { by: "cancel", reason });
  }

  /** The agent withdrew one request: its handler's signal is aborted with `reason`; nothing is answered. */
  withdraw(key: string, reason: unknown): void {
    this.#settle(key, { by: "cancel", reason, withdrawn: true });
  }

  /** Calls the handler; a synchronous throw becomes a rejection. */
  async #callHandler(pending: Pending): Promise<unknown> {
    const approvals = this.#approvals;
    const context = { signal: pending.controller.signal };
    const routed = pending.routed;
    if (routed.type === "approval") return approvals.onRequest(routed.request, context);
    if (routed.type === "userInput") return approvals.onUserInput?.(routed.request, context);
    return approvals.onElicitation?.(routed.request, context);
  }

  #settle(key: string, outcome: Outcome): void {
    const pending = this.#pending.get(key);
    if (pending === undefined) return;
    this.#pending.delete(key);
    if (pending.timer) clearTimeout(pending.timer);
    pending.controller.abort(abortReason(outcome));
    if (this.#host.ended()) return;
    const routed = pending.routed;
    const checked = outcome.by === "handler" ? checkAnswer(routed, outcome.answer) : null;
    const decidedBy: ApprovalDecider = checked !== null && !checked.ok ? "default" : outcome.by;
    const problem = checked !== null && !checked.ok ? checked.error : outcome.error;
    const result = reply(routed, checked?.ok ? checked.value : null, decidedBy);
    if (routed.type === "approval") {
      this.#host.emit({
        type: "approval.resolved",
        requestId: routed.request.id,
        kind: routed.request.kind,
        decision: result.decision ?? "decline",
        decidedBy,
        durationMs: Math.max(0, Math.round(this.#host.now() - pending.startedAt)),
        ...(decidedBy === "default" && problem !== undefined ? { error: problem } : {}),
      });
    }
    pending.answer(outcome.by === "cancel" && outcome.withdrawn ? null : { body: result.body });
  }
}

/** The wire reply: the handler's valid answer, else the fallback for who decided. Pure. */
function reply(
  routed: RoutedRequest,
  answer: unknown,
  decidedBy: ApprovalDecider,
): { body: unknown; decision?: ApprovalDecision } {
  if (routed.type === "approval") {
    const decision: ApprovalDecision =
      answer !== null ? (answer as ApprovalDecision) : decidedBy === "cancel" ? "cancel" : "decline";
    return { body: routed.reply(decision), decision };
  }
  if (routed.type === "userInput") return { body: routed.reply((answer ?? {}) as UserInputAnswers) };
  if (answer !== null) return { body: routed.reply(answer as ElicitationAnswer) };
  return { body: routed.reply({ action: decidedBy === "cancel" ? "cancel" : "decline" }) };
}

/** Whether a handler's answer is one the request takes. Pure. */
function checkAnswer(
  routed: RoutedRequest,
  answer: unknown,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (routed.type === "approval") {
    return typeof answer === "string" && (routed.request.decisions as readonly string[]).includes(answer)
      ? { ok: true, value: answer }
      : {
          ok: false,
          error: `the handler returned ${valueText(answer)}, not one of this request's decisions (${routed.request.decisions.join(", ")})`,
        };
  }
  if (routed.type === "userInput") {
    const valid =
      typeof answer === "object" &&
      answer !== null &&
      !Array.isArray(answer) &&
      Object.values(answer).every((a) => Array.isArray(a) && a.every((s) => typeof s === "string"));
    return valid
      ? { ok: true, value: answer }
      : { ok: false, error: "onUserInput must return { [questionId]: string[] }" };
  }
  const action = (answer as { action?: unknown } | null)?.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel")
    return { ok: false, error: 'onElicitation must return { action: "accept" | "decline" | "cancel" }' };
  // the content goes to the agent as JSON: one JSON cannot encode (a bigint, a cycle) is no answer
  try {
    JSON.stringify((answer as ElicitationAnswer).content);
  } catch (error) {
    return { ok: false, error: `onElicitation's content is not JSON: ${errorMessage(error)}` };
  }
  return { ok: true, value: answer };
}
