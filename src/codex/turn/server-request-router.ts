/**
 * The one place a Codex server request is answered. Without app handlers every request gets its immediate,
 * method-specific answer (`turn/approvals.ts`); with `approvals`, approval requests go to `onRequest` and
 * questions to `onUserInput` / `onElicitation` through the shared {@link AppRequestBroker} (deadline, cancel,
 * audit events), and each answer is recorded in the stream (`request.answered`).
 */
import type { ApprovalDecision, ApprovalOptions, ApprovalRequest } from "../../harness/approvals.js";
import type { EventBody, RequestAnsweredEvent } from "../../harness/events.js";
import { JSON_RPC_CODES } from "../../jsonl/json-rpc-codes.js";
import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import { AppRequestBroker, hasHandler, type RoutedRequest } from "../../session/app-request-broker.js";
import { answerRequest } from "./approvals.js";
import { routeCodexRequest } from "./routed-requests.js";

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

export class ServerRequestRouter {
  readonly #approvals: ApprovalOptions | undefined;
  readonly #host: ServerRequestHost;
  readonly #broker: AppRequestBroker | null;

  constructor(approvals: ApprovalOptions | undefined, host: ServerRequestHost) {
    this.#approvals = approvals;
    this.#host = host;
    this.#broker = approvals ? new AppRequestBroker(approvals, host) : null;
  }

  /** Requests still waiting for an app handler. */
  get pendingCount(): number {
    return this.#broker?.pendingCount ?? 0;
  }

  /** Answers one server request, at once or once the app's handler has. */
  handle(frame: Frame): void {
    if (this.#host.ended()) return;
    const routed = this.#route(frame);
    if (routed === null || this.#broker === null) {
      this.#host.emit(answerRequest(this.#host.connection(), frame));
      return;
    }
    const submitted = this.#broker.submit(String(frame.id), routed, (reply) => {
      if (reply === null) return;
      this.#host.connection().respond(frame.id, reply.body);
      this.#answered(frame, { result: reply.body });
    });
    if (!submitted) {
      // the id of a request still waiting for the app: refused, so that the first keeps its answer
      const message = `a request with id ${JSON.stringify(frame.id)} is already waiting for an answer`;
      this.#host.connection().respondError(frame.id, JSON_RPC_CODES.invalidRequest, message);
      this.#answered(frame, { error: { code: JSON_RPC_CODES.invalidRequest, message } });
    }
  }

  #answered(frame: Frame, reply: RequestAnsweredEvent["reply"]): void {
    this.#host.emit({
      type: "request.answered",
      method: frame.method,
      requestId: frame.id,
      params: frame.params,
      reply,
    });
  }

  /** Asks the app about a request Rennet serves itself (an app tool call); null without `approvals`. */
  decide(request: ApprovalRequest): Promise<ApprovalDecision | null> {
    return this.#broker?.decide(request) ?? Promise.resolve(null);
  }

  /**
   * The turn is being cancelled or has ended: every pending handler's signal is aborted with `reason`, and
   * each request is answered (`cancel` for an approval, no answer for a question) and recorded; so is each one
   * that arrives later, without its handler.
   */
  cancelPending(reason: unknown): void {
    this.#broker?.cancelPending(reason);
  }

  /** The routed form of a request the app has a handler for, else null (answered by default). */
  #route(frame: Frame): RoutedRequest | null {
    if (!this.#approvals) return null;
    const itemId = (frame.params as Json | null)?.itemId;
    const item = typeof itemId === "string" ? this.#host.openItem(itemId) : undefined;
    const routed = routeCodexRequest(frame.method, frame.id, frame.params, item);
    return routed !== null && hasHandler(this.#approvals, routed) ? routed : null;
  }
}
