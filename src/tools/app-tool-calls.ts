/**
 * Runs the agent's calls of a session's app tools in the app's process: each call is announced
 * (`tool.started`, kind `app`), its arguments validated against the tool's schema, its handler run with an
 * abort signal, and its end reported (`tool.completed`) before the answer goes back to the agent. Whatever goes
 * wrong inside a call (unknown tool, invalid arguments, a throw, a result that is not JSON) is a tool error the
 * agent sees, never a failure of the session. Transport-free: each harness carries requests in and answers out.
 */
import { errorMessage } from "../errors.js";
import type { AppToolApprovalRequest, ApprovalDecision } from "../harness/approvals.js";
import type { HarnessName } from "../harness/event-base.js";
import type { AppToolContent, EventBody } from "../harness/events.js";
import { describeViolation } from "../schema/schema-errors.js";
import { compileSchemaValidator } from "../schema/schema-validator.js";
import { approvalCancelled } from "../harness/errors.js";
import type { AppTool } from "./define-tool.js";
import { toolOutput } from "./tool-output.js";
import type { ToolSet } from "./tool-set.js";

/** One call as the agent asked it. */
export interface AppToolCallRequest {
  /** The agent's id of the call; the events' `itemId`. */
  callId: string;
  name: string;
  arguments: unknown;
  /** The agent's request as it arrived: the events' `item`. */
  item: Record<string, unknown>;
  /** The harness's method that carried it (`item/tool/call`, MCP `tools/call`). */
  method: string;
}

/** What goes back to the agent. */
export interface AppToolAnswer {
  content: AppToolContent[];
  isError: boolean;
}

interface OpenCall {
  request: AppToolCallRequest;
  controller: AbortController;
  startedAt: number;
}

type Outcome = { ok: true; content: AppToolContent[] } | { ok: false; error: string };

const VIOLATIONS_SHOWN = 5;

export interface AppToolCallsOptions {
  sessionId: string;
  /** Receives each call's `tool.started` and `tool.completed`, synchronously. */
  emit(body: EventBody): void;
  /** Milliseconds clock for `durationMs` (default `performance.now`). */
  now?: () => number;
  /**
   * With approvals routed to the app: asks it about each valid call before the handler runs (see
   * {@link appToolApproval}). Anything but `accept`/`acceptForSession` answers the agent with a tool error;
   * after `acceptForSession`, the same tool's later calls in the session run without asking.
   */
  approve?(request: AppToolApprovalRequest): Promise<ApprovalDecision | null>;
  /** Cancels the turn (as its `cancel()` does) when the app answered `cancel` about a call. */
  cancelTurn?(reason: unknown): void;
  harness: HarnessName;
}

export class AppToolCalls {
  readonly #tools: ToolSet;
  readonly #options: AppToolCallsOptions;
  readonly #open = new Map<string, OpenCall>();
  /** The tools the app answered `acceptForSession` about: their later calls run without asking. */
  readonly #acceptedForSession = new Set<string>();
  /** Set by {@link abortAll}: the turn is ending, and a call that arrives now never runs its handler. */
  #closed: { reason: unknown } | null = null;

  constructor(tools: ToolSet, options: AppToolCallsOptions) {
    this.#tools = tools;
    this.#options = options;
  }

  /** Calls whose handler has not settled. */
  get openCount(): number {
    return this.#open.size;
  }

  /**
   * Runs one call. Resolves with the answer once its `tool.completed` is emitted; resolves null when the call
   * was aborted first ({@link abortAll} has completed it). A call that arrives once the turn is ending (after
   * {@link abortAll}, or when its own `tool.started` stopped the turn at a limit) completes `cancelled` at once
   * with an error answer: its handler never runs. Never rejects.
   */
  async run(request: AppToolCallRequest): Promise<AppToolAnswer | null> {
    const now = this.#options.now ?? (() => performance.now());
    const { callId, name } = request;
    this.#options.emit({
      type: "tool.started",
      itemId: callId,
      tool: "app",
      title: name,
      item: request.item,
      app: { name, arguments: request.arguments },
    });
    if (this.#open.has(callId)) {
      const error = `a call with id ${callId} is already running`;
      this.#options.emit(completed(request, { ok: false, error }, 0));
      return { content: [{ type: "text", text: `Error: ${error}` }], isError: true };
    }
    if (this.#closed !== null) {
      const error = `the turn ended before the tool ran (${errorMessage(this.#closed.reason)})`;
      this.#options.emit(completed(request, { ok: false, error }, 0, "cancelled"));
      return { content: [{ type: "text", text: `Error: ${error}` }], isError: true };
    }
    const open: OpenCall = { request, controller: new AbortController(), startedAt: now() };
    this.#open.set(callId, open);
    const outcome = await this.#execute(request, open.controller.signal);
    if (this.#open.get(callId) !== open) return null;
    this.#open.delete(callId);
    this.#options.emit(completed(request, outcome, now() - open.startedAt));
    return outcome.ok
      ? { content: outcome.content, isError: false }
      : { content: [{ type: "text", text: `Error: ${outcome.error}` }], isError: true };
  }

  /**
   * Aborts every running handler with `reason` (its `signal.reason`) and returns the `tool.completed` of each
   * (`status: "cancelled"`); their answers are never sent. Later calls never run (see {@link run}). For the
   * turn's cancel and the session's end, before its terminal frame.
   */
  abortAll(reason: unknown): EventBody[] {
    this.#closed ??= { reason };
    const now = this.#options.now ?? (() => performance.now());
    const events: EventBody[] = [];
    for (const open of this.#open.values()) {
      const error = `the session ended before the tool finished (${errorMessage(reason)})`;
      events.push(completed(open.request, { ok: false, error }, now() - open.startedAt, "cancelled"));
    }
    const calls = [...this.#open.values()];
    this.#open.clear();
    for (const open of calls) open.controller.abort(reason);
    return events;
  }

  async #execute(request: AppToolCallRequest, signal: AbortSignal): Promise<Outcome> {
    const tool = this.#tools.get(request.name);
    if (tool === undefined) {
      const known = [...this.#tools.keys()].join(", ");
      return { ok: false, error: `no app tool named ${request.name} in this session (tools: ${known})` };
    }
    const invalid = invalidArguments(tool, request.arguments);
    if (invalid !== null) return { ok: false, error: invalid };
    const approve = this.#options.approve;
    if (approve !== undefined && !this.#acceptedForSession.has(tool.name)) {
      const decision = await approve(appToolApproval(this.#options.harness, request));
      if (decision === "cancel") this.#options.cancelTurn?.(approvalCancelled());
      if (decision === "acceptForSession") this.#acceptedForSession.add(tool.name);
      else if (decision !== "accept")
        return {
          ok: false,
          error: `the app ${decision === "cancel" ? "cancelled the turn at" : "declined"} this call`,
        };
    }
    try {
      const context = { signal, sessionId: this.#options.sessionId, callId: request.callId };
      const value = await untilAborted(
        // a call aborted before its handler began (the session ended in between) never starts it
        Promise.resolve().then(() => {
          signal.throwIfAborted();
          return tool.handler(request.arguments, context);
        }),
        signal,
      );
      const output = toolOutput(value);
      return output.ok ? output : { ok: false, error: output.error };
    } catch (error) {
      return { ok: false, error: errorMessage(error) };
    }
  }
}

/** The approval request for one valid app tool call (its id is the call's). Pure. */
function appToolApproval(harness: HarnessName, request: AppToolCallRequest): AppToolApprovalRequest {
  return {
    kind: "appTool",
    id: request.callId,
    harness,
    itemId: request.callId,
    reason: null,
    decisions: ["accept", "acceptForSession", "decline", "cancel"],
    native: { method: request.method, params: request.item },
    tool: request.name,
    arguments: request.arguments,
  };
}

/** `work`, or a rejection with `signal.reason` once `signal` aborts (a handler that ignores it is abandoned). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Why `args` do not fit the tool's schema, or null when they do. */
function invalidArguments(tool: AppTool, args: unknown): string | null {
  const validate = compileSchemaValidator(tool.inputSchema, `Tool ${tool.name}'s inputSchema`);
  if (validate(args)) return null;
  const violations = [...new Set((validate.errors ?? []).map(describeViolation))];
  const shown = violations.slice(0, VIOLATIONS_SHOWN).join("; ") || "(root) does not match the schema";
  const more = violations.length > VIOLATIONS_SHOWN ? ` (+${violations.length - VIOLATIONS_SHOWN} more)` : "";
  return `invalid arguments for ${tool.name}: ${shown}${more}`;
}

function completed(
  request: AppToolCallRequest,
  outcome: Outcome,
  durationMs: number,
  failedStatus = "failed",
): EventBody {
  return {
    type: "tool.completed",
    itemId: request.callId,
    tool: "app",
    title: request.name,
    status: outcome.ok ? "completed" : failedStatus,
    exitCode: null,
    item: request.item,
    app: {
      name: request.name,
      arguments: request.arguments,
      result: outcome.ok ? outcome.content : null,
      error: outcome.ok ? null : outcome.error,
      durationMs: Math.max(0, Math.round(durationMs)),
    },
  };
}
