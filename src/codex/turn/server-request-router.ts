/**
 * The one place a Codex server request is answered. Without app handlers every request gets its immediate,
 * method-specific answer (`turn/approvals.ts`); with `approvals`, approval requests go to `onRequest` and
 * questions to `onUserInput` / `onElicitation`, each under the deadline, and each answer is recorded in the
 * stream (`approval.requested`, `approval.resolved`, `request.answered`).
 */
import type { ApprovalDecider, ApprovalDecision, ApprovalOptions } from "../../harness/approvals.js";
import type { EventBody } from "../../harness/events.js";
import { errorMessage, RennetError } from "../../errors.js";
import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import { answerRequest, answerServerRequest } from "./approvals.js";
import { routeCodexRequest, type RoutedRequest } from "./routed-requests.js";

type Json = Record<string, unknown>;
type Frame = { method: string; id: number | string; params: unknown };

/** What the router needs from its turn. */
export interface ServerRequestHost {
  connection(): Pick<JsonRpcConnection, "respond" | "respondError">;
  emit(body: EventBody): void;
  /** Whether the turn has ended: nothing more is emitted or answered. */
  ended(): boolean;
  /** The open tool item a request names (for a file change's paths and diff). */
  openItem(itemId: string): Json | undefined;
  /** Monotonic milliseconds. */
  now(): number;
}

interface Pending {
  frame: Frame;
  routed: RoutedRequest;
  startedAt: number;
  controller: AbortController;
  timer: NodeJS.Timeout | null;
}

/** How a pending request came to be answered. */
type Outcome =
  | { by: "handler"; answer: unknown; error?: undefined }
  | { by: "default"; error: string }
  | { by: "deadline"; timeoutMs: number; error?: undefined }
  | { by: "cancel"; reason: unknown; error?: undefined };

/** What a handler's signal is aborted with. */
function abortReason(outcome: Outcome): unknown {
  if (outcome.by === "cancel") return outcome.reason;
  if (outcome.by === "deadline")
    return new RennetError("APPROVAL_DEADLINE", `the handler did not answer within ${outcome.timeoutMs} ms`);
  return new RennetError("APPROVAL_ANSWERED", "the request has been answered");
}

export class ServerRequestRouter {
  readonly #approvals: ApprovalOptions | undefined;
  readonly #host: ServerRequestHost;
  readonly #pending = new Map<string, Pending>();

  constructor(approvals: ApprovalOptions | undefined, host: ServerRequestHost) {
    this.#approvals = approvals;
    this.#host = host;
  }

  /** Requests still waiting for an app handler. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Answers one server request, at once or once the app's handler has. */
  handle(frame: Frame): void {
    if (this.#host.ended()) return;
    const routed = this.#approvals ? this.#route(frame) : null;
    if (routed === null) {
      this.#host.emit(answerRequest(this.#host.connection(), frame));
      return;
    }
    const pending: Pending = {
      frame,
      routed,
      startedAt: this.#host.now(),
      controller: new AbortController(),
      timer: null,
    };
    const key = String(frame.id);
    this.#pending.set(key, pending);
    if (routed.type === "approval")
      this.#host.emit({ type: "approval.requested", requestId: routed.request.id, request: routed.request });
    const timeoutMs = this.#approvals?.timeoutMs;
    if (timeoutMs !== undefined) {
      pending.timer = setTimeout(() => this.#settle(key, { by: "deadline", timeoutMs }), timeoutMs);
    }
    this.#callHandler(pending).then(
      (answer) => this.#settle(key, { by: "handler", answer }),
      (error: unknown) => this.#settle(key, { by: "default", error: errorMessage(error) }),
    );
  }

  /**
   * The turn is being cancelled or has ended: every pending handler's signal is aborted with `reason`, and
   * each request is answered (`cancel` for an approval, no answer for a question) and recorded.
   */
  cancelPending(reason: unknown): void {
    for (const key of [...this.#pending.keys()]) this.#settle(key, { by: "cancel", reason });
  }

  /** The routed form of a request the app has a handler for, else null (answered by default). */
  #route(frame: Frame): RoutedRequest | null {
    const itemId = (frame.params as Json | null)?.itemId;
    const item = typeof itemId === "string" ? this.#host.openItem(itemId) : undefined;
    const routed = routeCodexRequest(frame.method, frame.id, frame.params, item);
    if (routed === null) return null;
    if (routed.type === "userInput" && !this.#approvals?.onUserInput) return null;
    if (routed.type === "elicitation" && !this.#approvals?.onElicitation) return null;
    return routed;
  }

  /** Calls the handler; a synchronous throw becomes a rejection. */
  async #callHandler(pending: Pending): Promise<unknown> {
    const approvals = this.#approvals as ApprovalOptions;
    const context = { signal: pending.controller.signal };
    const routed = pending.routed;
    if (routed.type === "approval") return approvals.onRequest(routed.request, context);
    if (routed.type === "userInput") return approvals.onUserInput?.(routed.request, context);
    return approvals.onElicitation?.(routed.request, context);
  }

  /**
   * Answers a pending request once: `handler` with the handler's answer (checked; an invalid one is decided
   * by `default`), `default` after a throw (`error`), `deadline`, or `cancel` (the signal aborted with `reason`).
   */
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
    const result = this.#reply(routed, checked?.ok ? checked.value : null, decidedBy);
    const durationMs = Math.max(0, Math.round(this.#host.now() - pending.startedAt));
    if (routed.type === "approval") {
      this.#host.emit({
        type: "approval.resolved",
        requestId: routed.request.id,
        kind: routed.request.kind,
        decision: result.decision ?? "decline",
        decidedBy,
        durationMs,
        ...(decidedBy === "default" && problem !== undefined ? { error: problem } : {}),
      });
    }
    this.#host.connection().respond(pending.frame.id, result.body);
    this.#host.emit({
      type: "request.answered",
      method: pending.frame.method,
      requestId: pending.frame.id,
      params: pending.frame.params,
      reply: { result: result.body },
    });
  }

  /** The wire reply: the handler's valid answer, else the fallback for who decided. */
  #reply(
    routed: RoutedRequest,
    answer: unknown,
    decidedBy: ApprovalDecider,
  ): { body: unknown; decision?: ApprovalDecision } {
    if (routed.type === "approval") {
      const decision: ApprovalDecision =
        answer !== null ? (answer as ApprovalDecision) : decidedBy === "cancel" ? "cancel" : "decline";
      return { body: routed.reply(decision), decision };
    }
    if (answer !== null) {
      return routed.type === "userInput"
        ? { body: routed.reply(answer as Record<string, string[]>) }
        : { body: routed.reply(answer as { action: "accept" | "decline" | "cancel" }) };
    }
    if (routed.type === "elicitation")
      return { body: routed.reply({ action: decidedBy === "cancel" ? "cancel" : "decline" }) };
    const fallback = answerServerRequest(routed.request.native.method, routed.request.native.params);
    return { body: fallback.type === "result" ? fallback.result : { answers: {} } };
  }
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
          error: `the handler returned ${JSON.stringify(answer) ?? String(answer)}, not one of this request's decisions (${routed.request.decisions.join(", ")})`,
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
  return action === "accept" || action === "decline" || action === "cancel"
    ? { ok: true, value: answer }
    : { ok: false, error: 'onElicitation must return { action: "accept" | "decline" | "cancel" }' };
}
