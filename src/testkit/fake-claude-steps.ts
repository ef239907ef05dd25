/**
 * Builders for the lines a fake `claude` writes, in Claude Code 2.1.332's stream-json shapes (as captured from
 * the real binary): `system/init`, `stream_event` deltas, one `assistant` line per content block, `user` tool
 * results, `result`. Pure data.
 */
import type { FakeClaudeStep } from "./fake-claude-script.js";

/** A UUID, like the session ids Claude Code gives (which `--resume` requires). */
export const FAKE_CLAUDE_SESSION_ID = "4b0c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3";
/** The model the fake Claude Code reports unless its script names another. */
export const FAKE_CLAUDE_MODEL = "claude-fake-1";
/** The `uuid` of the fake's `system/init` line: the turn's id. */
export const FAKE_CLAUDE_TURN_ID = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";

type Line = Record<string, unknown>;
const send = (line: Line): FakeClaudeStep => ({ send: line });
const envelope = { session_id: FAKE_CLAUDE_SESSION_ID, parent_tool_use_id: null };
const USAGE = {
  input_tokens: 11,
  cache_creation_input_tokens: 3,
  cache_read_input_tokens: 5,
  output_tokens: 7,
};

function streamEvent(event: Line, parent: string | null = null): FakeClaudeStep {
  return send({ type: "stream_event", event, ...envelope, parent_tool_use_id: parent });
}

/** Options shared by the message builders. */
export interface FakeMessageOptions {
  /** The Messages API message id (`msg_…`); blocks are named by it. Default `msg_fake_1`. */
  messageId?: string;
  /** Set on a subagent's lines: the id of the `Task`/`Agent` call that runs it (no stream events then). */
  parentToolId?: string;
}

/** `stream_event` lines of one message around its block events, and the `assistant` line before the block stop. */
function message(
  block: Line,
  deltas: Line[],
  options: FakeMessageOptions,
  stopReason: string,
): FakeClaudeStep[] {
  const id = options.messageId ?? "msg_fake_1";
  const parent = options.parentToolId ?? null;
  const assistant = send({
    type: "assistant",
    message: {
      id,
      type: "message",
      role: "assistant",
      model: FAKE_CLAUDE_MODEL,
      content: [block],
      usage: USAGE,
    },
    ...envelope,
    parent_tool_use_id: parent,
  });
  if (parent !== null) return [assistant];
  const start = {
    ...block,
    ...(block.type === "text" ? { text: "" } : {}),
    ...(block.type === "tool_use" ? { input: {} } : {}),
  };
  return [
    streamEvent({
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model: FAKE_CLAUDE_MODEL,
        content: [],
        usage: { ...USAGE, output_tokens: 1 },
      },
    }),
    streamEvent({ type: "content_block_start", index: 0, content_block: start }),
    ...deltas.map((delta) => streamEvent({ type: "content_block_delta", index: 0, delta })),
    assistant,
    streamEvent({ type: "content_block_stop", index: 0 }),
    streamEvent({
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: USAGE.output_tokens },
    }),
    streamEvent({ type: "message_stop" }),
  ];
}

/** Builders of the stream-json lines a fake Claude Code writes: `system/init`, messages, tool calls, `result`. */
export const claudeSteps = {
  /** `system/init`: what Claude Code writes once it read the first user message. */
  init(
    options: { sessionId?: string; model?: string; cwd?: string; version?: string; tools?: string[] } = {},
  ): FakeClaudeStep {
    return send({
      type: "system",
      subtype: "init",
      cwd: options.cwd ?? "/tmp/fake-cwd",
      session_id: options.sessionId ?? FAKE_CLAUDE_SESSION_ID,
      tools: options.tools ?? ["Bash", "Edit", "Read", "Write"],
      mcp_servers: [],
      model: options.model ?? FAKE_CLAUDE_MODEL,
      permissionMode: "bypassPermissions",
      claude_code_version: options.version ?? "2.1.332",
      uuid: FAKE_CLAUDE_TURN_ID,
    });
  },

  /** A text block streamed in `chunks`, then its assistant line. */
  text(text: string, options: FakeMessageOptions & { chunks?: string[] } = {}): FakeClaudeStep[] {
    const chunks = options.chunks ?? [text];
    return message(
      { type: "text", text },
      chunks.map((t) => ({ type: "text_delta", text: t })),
      options,
      "end_turn",
    );
  },

  /** A tool call. */
  toolUse(
    id: string,
    name: string,
    input: Record<string, unknown>,
    options: FakeMessageOptions = {},
  ): FakeClaudeStep[] {
    const json = JSON.stringify(input);
    return message(
      { type: "tool_use", id, name, input },
      [{ type: "input_json_delta", partial_json: json }],
      options,
      "tool_use",
    );
  },

  /** A tool's result as Claude writes it (`toolUseResult` is Claude's own view of it, e.g. a Bash `{stdout,…}`). */
  toolResult(
    id: string,
    content: string,
    options: { isError?: boolean; toolUseResult?: unknown; parentToolId?: string } = {},
  ): FakeClaudeStep {
    return send({
      type: "user",
      message: {
        role: "user",
        content: [{ tool_use_id: id, type: "tool_result", content, is_error: options.isError ?? false }],
      },
      ...envelope,
      parent_tool_use_id: options.parentToolId ?? null,
      ...(options.toolUseResult === undefined ? {} : { tool_use_result: options.toolUseResult }),
    });
  },

  /** A Bash call and its result: exit 0 prints `output`; another code is an error result `Exit code N\n<output>`. */
  bash(
    id: string,
    command: string,
    outcome: { output: string; exitCode?: number },
    options: FakeMessageOptions = {},
  ): FakeClaudeStep[] {
    const code = outcome.exitCode ?? 0;
    const failed = code !== 0;
    const content = failed ? `Exit code ${code}\n${outcome.output}` : outcome.output;
    const view = failed
      ? `Error: ${content}`
      : { stdout: outcome.output, stderr: "", interrupted: false, isImage: false };
    return [
      ...claudeSteps.toolUse(id, "Bash", { command, description: "run" }, options),
      claudeSteps.toolResult(id, content, {
        isError: failed,
        toolUseResult: view,
        ...(options.parentToolId ? { parentToolId: options.parentToolId } : {}),
      }),
    ];
  },

  /** The `result` line. Default: a successful turn answering `done`. */
  result(
    options: {
      subtype?: string;
      isError?: boolean;
      result?: string;
      costUsd?: number;
      terminalReason?: string;
      apiErrorStatus?: number | null;
      errors?: string[];
      structuredOutput?: unknown;
      sessionId?: string;
      /** Model responses in the turn (default 1): the result sums their usage. */ responses?: number;
    } = {},
  ): FakeClaudeStep {
    return send({
      type: "result",
      subtype: options.subtype ?? "success",
      is_error: options.isError ?? false,
      result: options.result ?? "done",
      stop_reason: "end_turn",
      terminal_reason: options.terminalReason ?? "completed",
      api_error_status: options.apiErrorStatus ?? null,
      num_turns: 1,
      session_id: options.sessionId ?? FAKE_CLAUDE_SESSION_ID,
      total_cost_usd: options.costUsd ?? 0.0002,
      usage: Object.fromEntries(Object.entries(USAGE).map(([key, n]) => [key, n * (options.responses ?? 1)])),
      modelUsage: { [FAKE_CLAUDE_MODEL]: { contextWindow: 200000 } },
      permission_denials: [],
      ...(options.errors ? { errors: options.errors } : {}),
      ...(options.structuredOutput === undefined ? {} : { structured_output: options.structuredOutput }),
    });
  },

  /** A provider error as Claude reports it: a synthetic assistant message, then an error result. */
  apiError(status: number, text: string): FakeClaudeStep[] {
    return [
      send({
        type: "assistant",
        message: {
          id: "msg_synthetic",
          role: "assistant",
          model: "<synthetic>",
          content: [{ type: "text", text }],
        },
        ...envelope,
        error: status === 401 ? "authentication_failed" : status === 429 ? "rate_limit" : "server_error",
        is_api_error_message: true,
        api_error_status: status,
      }),
      claudeSteps.result({
        isError: true,
        result: text,
        terminalReason: "api_error",
        apiErrorStatus: status,
      }),
    ];
  },

  /** What Claude writes after an interrupt: the interruption note and an `error_during_execution` result. */
  interrupted(options: { duringTool?: boolean } = {}): FakeClaudeStep[] {
    const note = options.duringTool
      ? "[Request interrupted by user for tool use]"
      : "[Request interrupted by user]";
    return [
      send({ type: "user", message: { role: "user", content: [{ type: "text", text: note }] }, ...envelope }),
      claudeSteps.result({
        subtype: "error_during_execution",
        isError: true,
        result: "",
        terminalReason: options.duringTool ? "aborted_tools" : "aborted_streaming",
        errors: ["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null"],
      }),
    ];
  },

  /** A control request from Claude to the client (`can_use_tool`, `mcp_message`, …). */
  controlRequest(requestId: string, request: { subtype: string } & Line): FakeClaudeStep {
    return send({ type: "control_request", request_id: requestId, request });
  },

  /**
   * A permission prompt (`can_use_tool`, sent under `--permission-prompt-tool stdio`) for tool call `toolUseId`;
   * follow it with `{ awaitControlResponse: requestId }`.
   */
  canUseTool(
    requestId: string,
    toolUseId: string,
    toolName: string,
    input: Record<string, unknown>,
    extra: Line = {},
  ): FakeClaudeStep {
    return claudeSteps.controlRequest(requestId, {
      subtype: "can_use_tool",
      tool_name: toolName,
      display_name: toolName,
      input,
      tool_use_id: toolUseId,
      ...extra,
    });
  },

  /** An MCP server's elicitation, forwarded by Claude to the client. */
  elicitation(requestId: string, server: string, message: string, schema: Line = {}): FakeClaudeStep {
    const request = { mcp_server_name: server, message, mode: "form", requested_schema: schema };
    return claudeSteps.controlRequest(requestId, { subtype: "elicitation", ...request });
  },

  /** Claude withdraws a control request it sent (e.g. a pending `can_use_tool` when the turn is interrupted). */
  controlCancel(requestId: string): FakeClaudeStep {
    return send({ type: "control_cancel_request", request_id: requestId });
  },

  /** An `mcp_message` control request: a JSON-RPC `message` for the client's in-process MCP server `server`. */
  mcpMessage(requestId: string, server: string, message: Line): FakeClaudeStep {
    return claudeSteps.controlRequest(requestId, { subtype: "mcp_message", server_name: server, message });
  },

  /**
   * A call of the client's in-process MCP tool as Claude makes it: the `tool_use` block `mcp__<server>__<tool>`,
   * the `tools/call` as an `mcp_message` (request id `mcp-<toolUseId>`), the wait for the client's answer, and
   * the `tool_result` carrying that answer. `server` defaults to `rennet` (where Rennet serves app tools).
   */
  mcpToolCall(
    toolUseId: string,
    tool: string,
    args: Line,
    options: FakeMessageOptions & { server?: string } = {},
  ): FakeClaudeStep[] {
    const server = options.server ?? "rennet";
    const requestId = `mcp-${toolUseId}`;
    const params = { name: tool, arguments: args, _meta: { "claudecode/toolUseId": toolUseId } };
    return [
      ...claudeSteps.toolUse(toolUseId, `mcp__${server}__${tool}`, args, options),
      claudeSteps.mcpMessage(requestId, server, { method: "tools/call", params, jsonrpc: "2.0", id: 2 }),
      { awaitControlResponse: requestId },
      { mcpToolResult: { requestId, toolUseId } },
    ];
  },

  /** `system/api_retry`: Claude retries a failed model request. */
  apiRetry(attempt: number, status: number): FakeClaudeStep {
    return send({
      type: "system",
      subtype: "api_retry",
      attempt,
      max_retries: 10,
      retry_delay_ms: 1000,
      error_status: status,
      error: status === 429 ? "rate_limit" : "server_error",
      ...envelope,
    });
  },

  /** A whole successful turn answering `text`. */
  textTurn(text: string, chunks?: string[]): FakeClaudeStep[] {
    return [
      claudeSteps.init(),
      ...claudeSteps.text(text, chunks ? { chunks } : {}),
      claudeSteps.result({ result: text }),
    ];
  },

  /** A whole turn running one Bash command, then answering `then`. */
  bashTurn(command: string, outcome: { output: string; exitCode?: number }, then: string): FakeClaudeStep[] {
    return [
      claudeSteps.init(),
      ...claudeSteps.bash("toolu_fake_1", command, outcome, { messageId: "msg_fake_1" }),
      ...claudeSteps.text(then, { messageId: "msg_fake_2" }),
      claudeSteps.result({ result: then, responses: 2 }),
    ];
  },
};
