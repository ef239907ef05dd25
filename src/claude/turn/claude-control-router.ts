/**
 * The one place a Claude Code control request is answered. Without app handlers every request gets Rennet's
 * immediate default answer (`control-answers.ts`); with `approvals`, `can_use_tool` goes to `onRequest` (or, for
 * AskUserQuestion, `onUserInput`) and `elicitation` to `onElicitation` through the shared
 * {@link AppRequestBroker} (deadline, cancel, audit events). `control_cancel_request` withdraws a pending one.
 * Every answer written is recorded as `request.answered`.
 */
import type { ApprovalDecision, ApprovalOptions, ApprovalRequest } from "../../harness/approvals.js";
import type { EventBody, RequestAnsweredEvent } from "../../harness/events.js";
import { RennetError } from "../../errors.js";
import { JSON_RPC_CODES } from "../../jsonl/json-rpc-codes.js";
import { AppRequestBroker, hasHandler } from "../../session/app-request-broker.js";
import { defaultControlAnswer } from "../control-answers.js";
import { routeClaudeRequest } from "../routed-control-requests.js";
import { controlError, controlSuccess } from "../stdin-messages.js";
import type { ClaudeControlRequestLine } from "../stream-json-lines.js";

/** What the router needs from its turn. */
export interface ClaudeControlHost {
  /** Writes one line to Claude's stdin. */
  write(line: Record<string, unknown>): void;
  emit(body: EventBody): void;
  /** Whether the turn has ended: nothing more is emitted or answered. */
  ended(): boolean;
  /** The session's working directory (from `system/init`), once known. */
  cwd(): string | null;
  /** Whether a tool is one of the call's own app tools (allowed without asking the app: it defined them). */
  isAppTool(toolName: string): boolean;
  /** The app's handler cancelled the turn at a tool call (Claude ends it as interrupted). */
  cancelledByHandler(): void;
  now(): number;
}

type AnsweredReply = RequestAnsweredEvent["reply"];

export class ClaudeControlRouter {
  readonly #approvals: ApprovalOptions | undefined;
  readonly #host: ClaudeControlHost;
  readonly #broker: AppRequestBroker | null;

  constructor(approvals: ApprovalOptions | undefined, host: ClaudeControlHost) {
    this.#approvals = approvals;
    this.#host = host;
    this.#broker = approvals ? new AppRequestBroker(approvals, host) : null;
  }

  get pendingCount(): number {
    return this.#broker?.pendingCount ?? 0;
  }

  /** Answers one control request from Claude, at once or once the app's handler has. */
  handle(line: ClaudeControlRequestLine): void {
    if (this.#host.ended()) return;
    const id = line.request_id;
    const params = line.request as Record<string, unknown>;
    const appTool = typeof params.tool_name === "string" && this.#host.isAppTool(params.tool_name);
    const routed = this.#approvals && !appTool ? routeClaudeRequest(id, params, this.#host.cwd()) : null;
    if (routed === null || this.#broker === null) {
      const answer = defaultControlAnswer(line);
      this.#host.write(answer.line);
      this.#host.emit(answer.answered);
      return;
    }
    const answer = (body: unknown): void => {
      this.#reply(line, controlSuccess(id, body), { result: body });
      if ((body as { interrupt?: unknown }).interrupt === true) this.#host.cancelledByHandler();
    };
    if (this.#approvals && !hasHandler(this.#approvals, routed)) {
      // a question without `onUserInput` gets no answers, an elicitation without `onElicitation` a decline
      answer(
        routed.type === "userInput"
          ? routed.reply({})
          : routed.type === "elicitation"
            ? routed.reply({ action: "decline" })
            : null,
      );
      return;
    }
    const submitted = this.#broker.submit(id, routed, (reply) => {
      if (reply !== null) answer(reply.body);
    });
    if (!submitted) {
      // the id of a request still waiting for the app: refused, so that the first keeps its answer
      const message = `a request with id ${JSON.stringify(id)} is already waiting for an answer`;
      this.#reply(line, controlError(id, message), {
        error: { code: JSON_RPC_CODES.invalidRequest, message },
      });
    }
  }

  /** Writes `written`, the answer to `line`, and records it as `request.answered` with `reply`. */
  #reply(line: ClaudeControlRequestLine, written: Record<string, unknown>, reply: AnsweredReply): void {
    this.#host.write(written);
    const method = `control_request/${line.request.subtype}`;
    this.#host.emit({
      type: "request.answered",
      method,
      requestId: line.request_id,
      params: line.request,
      reply,
    });
  }

  /** Asks the app about a request Rennet serves itself (an app tool call); null without `approvals`. */
  decide(request: ApprovalRequest): Promise<ApprovalDecision | null> {
    return this.#broker?.decide(request) ?? Promise.resolve(null);
  }

  /** Claude withdrew a request (`control_cancel_request`): its handler's signal is aborted; nothing is written. */
  withdraw(requestId: string): void {
    this.#broker?.withdraw(
      requestId,
      new RennetError("APPROVAL_WITHDRAWN", "claude withdrew the request (the turn is being interrupted)"),
    );
  }

  /**
   * The turn is being cancelled or has ended: every pending request is answered `cancel` and recorded, and so
   * is each one that arrives later, without its handler.
   */
  cancelPending(reason: unknown): void {
    this.#broker?.cancelPending(reason);
  }
}
