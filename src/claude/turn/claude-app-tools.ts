/**
 * Claude Code's transport of app tools: an in-process MCP server registered with the `initialize` control
 * request (`sdkMcpServers: ["rennet"]`), whose MCP messages Claude sends as `mcp_message` control requests on
 * the child's own stdout and whose answers go back on its stdin. No socket, no secret: only the child Rennet
 * started can call the tools. Every message is answered as soon as it is handled (Claude waits 30 s, then 60 s,
 * for a silent host before it gives the server up).
 */
import type { AppToolApprovalRequest, ApprovalDecision } from "../../harness/approvals.js";
import type { EventBody } from "../../harness/events.js";
import { isRecord } from "../../json-record.js";
import { AppToolCalls } from "../../tools/app-tool-calls.js";
import { McpToolServer } from "../../tools/mcp-tool-server.js";
import type { ToolSet } from "../../tools/tool-set.js";
import { CLAUDE_APP_SERVER } from "../app-tool-uses.js";
import type { ClaudeEventMapper } from "../event-mapper.js";
import { controlSuccess, initializeRequest } from "../stdin-messages.js";
import type { ClaudeControlRequestLine, ClaudeControlResponseLine } from "../stream-json-lines.js";

type Json = Record<string, unknown>;

export interface ClaudeAppToolsOptions {
  tools: ToolSet;
  sessionId: string;
  mapper: ClaudeEventMapper;
  /** The session's emit (drops events once it ended). */
  emit(body: EventBody): void;
  /** Writes one line to Claude's stdin (does nothing once the session ended). */
  write(line: Json): unknown;
  /** With `approvals`: asks the app before each call runs (see `AppToolCallsOptions.approve`). */
  approve?: ((request: AppToolApprovalRequest) => Promise<ApprovalDecision | null>) | undefined;
  /** Cancels the turn when the app answered `cancel` about a call. */
  cancelTurn(reason: unknown): void;
}

export class ClaudeAppTools {
  readonly #options: ClaudeAppToolsOptions;
  readonly #calls: AppToolCalls;
  readonly #server: McpToolServer;
  /** The `initialize` request whose answer the prompt waits for, and the prompt. */
  #held: { requestId: string; prompt: Json } | null = null;

  constructor(options: ClaudeAppToolsOptions) {
    this.#options = options;
    const { sessionId, emit, approve, cancelTurn } = options;
    this.#calls = new AppToolCalls(options.tools, {
      sessionId,
      harness: "claude-code",
      emit,
      ...(approve ? { approve, cancelTurn } : {}),
    });
    this.#server = new McpToolServer({ tools: options.tools, calls: this.#calls, name: CLAUDE_APP_SERVER });
  }

  /**
   * Writes the `initialize` control request that registers the server and holds the turn's `prompt` line until
   * Claude answered it (the agent SDK writes both at once; the server is then registered by the time the turn
   * runs on 2.1.332, but waiting costs nothing and leaves no race on older releases).
   */
  begin(requestId: string, prompt: Json): void {
    this.#held = { requestId, prompt };
    this.#options.write(initializeRequest(requestId, { sdkMcpServers: [CLAUDE_APP_SERVER] }));
  }

  /**
   * Claude's answer to one of the client's control requests. For the held `initialize`: on success the prompt
   * is written (returns null); an error answer is returned (the turn cannot offer its tools). Else null.
   */
  answered(answer: ClaudeControlResponseLine): { error: string } | null {
    const held = this.#held;
    if (held === null || answer.response.request_id !== held.requestId) return null;
    this.#held = null;
    if (answer.response.subtype === "success") {
      this.#options.write(held.prompt);
      return null;
    }
    const error = answer.response.error;
    return { error: typeof error === "string" && error !== "" ? error : "no reason given" };
  }

  /** Whether a control request is an MCP message for the app server (then {@link serve} answers it). */
  handles(request: ClaudeControlRequestLine): boolean {
    const body = request.request;
    return body.subtype === "mcp_message" && body.server_name === CLAUDE_APP_SERVER;
  }

  /** Answers one `mcp_message` once handled (a `tools/call` once its handler settled), then reports it. */
  serve(request: ClaudeControlRequestLine): void {
    const body = request.request;
    const message = body.message;
    const context = this.#callContext(message);
    void this.#server.handle(message, context).then((response) => {
      // a notification needs no answer in MCP, but Claude waits for its control response
      const result = { mcp_response: response ?? { jsonrpc: "2.0", id: 0, result: {} } };
      this.#options.write(controlSuccess(request.request_id, result));
      this.#options.emit({
        type: "request.answered",
        method: "control_request/mcp_message",
        requestId: request.request_id,
        params: body,
        reply: { result },
      });
    });
  }

  /** Aborts the handlers still running and returns their `tool.completed` (`status: "cancelled"`). */
  abortAll(reason: unknown): EventBody[] {
    return this.#calls.abortAll(reason);
  }

  /** A `tools/call`'s id is the `tool_use` block's (`_meta["claudecode/toolUseId"]`); its item the block. */
  #callContext(message: unknown): { callId: string | null; item?: Json } {
    if (!isRecord(message) || message.method !== "tools/call" || !isRecord(message.params))
      return { callId: null };
    const meta = message.params._meta;
    const toolUseId = isRecord(meta) ? meta["claudecode/toolUseId"] : undefined;
    if (typeof toolUseId !== "string" || toolUseId === "") return { callId: null };
    const block = this.#options.mapper.appToolUses?.served(toolUseId) ?? null;
    return block === null ? { callId: toolUseId } : { callId: toolUseId, item: block };
  }
}
