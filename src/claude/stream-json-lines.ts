/**
 * The lines Claude Code writes on stdout in stream-json mode (`--output-format stream-json --verbose`), read
 * tolerantly: every line is kept as the object it was, unknown fields pass through, a line of a type this module
 * does not know is `unknown`, and a known type with a shape it cannot use (an `assistant` without `message`) is
 * `malformed`. Nothing here throws. Pure.
 */
import { asRecord, isRecord } from "../json-record.js";

type Json = Record<string, unknown>;

/** `system` lines: `init`, `status`, `api_retry`, `task_*`, … (the subtype says which). */
export interface ClaudeSystemLine {
  readonly type: "system";
  readonly subtype: string;
  readonly session_id?: string;
  readonly [field: string]: unknown;
}

/** A raw Messages API stream event (`--include-partial-messages`), wrapped. */
export interface ClaudeStreamEventLine {
  readonly type: "stream_event";
  readonly event: Json;
  readonly parent_tool_use_id?: string | null;
  readonly [field: string]: unknown;
}

/** The Messages API message an `assistant` or `user` line wraps. */
export interface ClaudeMessage {
  readonly id?: string;
  readonly model?: string;
  readonly role?: string;
  /** Content blocks (`text`, `thinking`, `tool_use`, `tool_result`, `image`, …); a string for plain user text. */
  readonly content: readonly unknown[] | string;
  readonly usage?: unknown;
  readonly [field: string]: unknown;
}

/** What an `assistant` and a `user` line both carry: the message they wrap. */
interface ClaudeMessageLine {
  readonly message: ClaudeMessage;
  /** Set on the lines of a subagent: the id of the `Task`/`Agent` tool call that runs it. */
  readonly parent_tool_use_id?: string | null;
  readonly [field: string]: unknown;
}

/** One whole assistant content block (Claude writes one line per block, all with the message's id). */
export interface ClaudeAssistantLine extends ClaudeMessageLine {
  readonly type: "assistant";
  /** Set on a synthetic message that reports a failed model request (`authentication_failed`, `rate_limit`, …). */
  readonly error?: string;
}

/** Tool results (and user text such as a subagent's prompt or `[Request interrupted by user]`). */
export interface ClaudeUserLine extends ClaudeMessageLine {
  readonly type: "user";
  /** Claude's own structured view of a tool's result (Bash stdout, an Edit's `structuredPatch`, …). */
  readonly tool_use_result?: unknown;
}

/** The last line of a turn. */
export interface ClaudeResultLine {
  readonly type: "result";
  /** `success`, `error_during_execution`, `error_max_budget_usd`, `error_max_turns`, … */
  readonly subtype: string;
  readonly is_error?: boolean;
  readonly result?: string;
  readonly structured_output?: unknown;
  readonly usage?: unknown;
  readonly modelUsage?: unknown;
  readonly total_cost_usd?: number;
  readonly session_id?: string;
  readonly stop_reason?: string | null;
  readonly terminal_reason?: string;
  readonly api_error_status?: number | null;
  readonly errors?: unknown;
  readonly [field: string]: unknown;
}

/** A request Claude sends to the client (`can_use_tool`, `mcp_message`, `hook_callback`, `elicitation`, …). */
export interface ClaudeControlRequestLine {
  readonly type: "control_request";
  readonly request_id: string;
  readonly request: { readonly subtype: string; readonly [field: string]: unknown };
  readonly [field: string]: unknown;
}

/** Claude's answer to one of the client's control requests (`interrupt`, `end_session`, …). */
export interface ClaudeControlResponseLine {
  readonly type: "control_response";
  readonly response: {
    readonly subtype: string;
    readonly request_id: string;
    readonly response?: unknown;
    readonly error?: string;
    readonly [field: string]: unknown;
  };
  readonly [field: string]: unknown;
}

/** A line of a type Claude Code writes that has no harness meaning beyond evidence. */
export interface ClaudeOtherKnownLine {
  readonly type: (typeof OTHER_KNOWN_TYPES)[number];
  readonly [field: string]: unknown;
}

/** What a line is, with the line itself. */
export type ClassifiedLine =
  | { kind: "system"; line: ClaudeSystemLine }
  | { kind: "stream_event"; line: ClaudeStreamEventLine }
  | { kind: "assistant"; line: ClaudeAssistantLine }
  | { kind: "user"; line: ClaudeUserLine }
  | { kind: "result"; line: ClaudeResultLine }
  | { kind: "control_request"; line: ClaudeControlRequestLine }
  | { kind: "control_response"; line: ClaudeControlResponseLine }
  | { kind: "other"; line: ClaudeOtherKnownLine }
  /** A known `type` whose required fields are missing or of the wrong kind. */
  | { kind: "malformed"; line: Json }
  /** A `type` (or `system` subtype) this adapter does not know, or no `type` at all. */
  | { kind: "unknown"; line: Json };

/** Line types Claude Code (and its agent SDK's schema) defines that carry nothing the harness events need. */
const OTHER_KNOWN_TYPES = [
  "control_cancel_request",
  "command_lifecycle",
  "tool_progress",
  "tool_use_summary",
  "auth_status",
  "rate_limit_event",
  "prompt_suggestion",
  "conversation_reset",
  "keep_alive",
  "streamlined_text",
  "streamlined_tool_use_summary",
] as const;

const OTHER_KNOWN = new Set<string>(OTHER_KNOWN_TYPES);

/**
 * `system` subtypes Claude Code defines (its agent SDK's message schema, 0.3.336, plus `ui_invalidate` seen from
 * 2.1.332). A `system` line of another subtype is `unknown`.
 */
const KNOWN_SYSTEM_SUBTYPES: ReadonlySet<string> = new Set([
  "init",
  "status",
  "api_retry",
  "compact_boundary",
  "hook_started",
  "hook_progress",
  "hook_response",
  "task_started",
  "task_progress",
  "task_updated",
  "task_notification",
  "background_tasks_changed",
  "thinking_tokens",
  "session_state_changed",
  "permission_denied",
  "informational",
  "notification",
  "mirror_error",
  "session_writes_lost",
  "files_persisted",
  "memory_recall",
  "elicitation_complete",
  "model_refusal_fallback",
  "model_refusal_no_fallback",
  "control_request_progress",
  "worker_shutting_down",
  "commands_changed",
  "local_command_output",
  "plugin_install",
  "ui_invalidate",
]);

function isMessage(value: unknown): value is ClaudeMessage {
  return isRecord(value) && (typeof value.content === "string" || Array.isArray(value.content));
}

/** Classifies one decoded stdout line. Pure; never throws. */
export function classifyLine(frame: Json): ClassifiedLine {
  const type = frame.type;
  switch (type) {
    case "system":
      if (typeof frame.subtype !== "string") return { kind: "malformed", line: frame };
      if (!KNOWN_SYSTEM_SUBTYPES.has(frame.subtype)) return { kind: "unknown", line: frame };
      return { kind: "system", line: frame as ClaudeSystemLine };
    case "stream_event":
      return isRecord(frame.event) && typeof frame.event.type === "string"
        ? { kind: "stream_event", line: frame as ClaudeStreamEventLine }
        : { kind: "malformed", line: frame };
    case "assistant":
      return isMessage(frame.message)
        ? { kind: "assistant", line: frame as ClaudeAssistantLine }
        : { kind: "malformed", line: frame };
    case "user":
      return isMessage(frame.message)
        ? { kind: "user", line: frame as ClaudeUserLine }
        : { kind: "malformed", line: frame };
    case "result":
      return typeof frame.subtype === "string"
        ? { kind: "result", line: frame as ClaudeResultLine }
        : { kind: "malformed", line: frame };
    case "control_request":
      return typeof frame.request_id === "string" &&
        isRecord(frame.request) &&
        typeof frame.request.subtype === "string"
        ? { kind: "control_request", line: frame as ClaudeControlRequestLine }
        : { kind: "malformed", line: frame };
    case "control_response":
      return isRecord(frame.response) &&
        typeof frame.response.request_id === "string" &&
        typeof frame.response.subtype === "string"
        ? { kind: "control_response", line: frame as ClaudeControlResponseLine }
        : { kind: "malformed", line: frame };
    default:
      return typeof type === "string" && OTHER_KNOWN.has(type)
        ? { kind: "other", line: frame as ClaudeOtherKnownLine }
        : { kind: "unknown", line: frame };
  }
}

/** The name a line goes by in `native`, `warning` and `passthrough` events: `type`, or `type/subtype` for `system`. */
export function lineMethod(frame: Json): string {
  const type = typeof frame.type === "string" ? frame.type : "unknown";
  if (type === "system" && typeof frame.subtype === "string") return `system/${frame.subtype}`;
  if (type === "stream_event" && isRecord(frame.event) && typeof frame.event.type === "string")
    return `stream_event/${frame.event.type}`;
  return type;
}

/** The content blocks of a message (a plain-string content is one text block). */
export function contentBlocks(message: ClaudeMessage): Json[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content }];
  return message.content.filter(isRecord);
}

/** The parent tool id of a subagent's line, or null for the main agent's. */
export function parentToolIdOf(line: { readonly parent_tool_use_id?: string | null }): string | null {
  return typeof line.parent_tool_use_id === "string" && line.parent_tool_use_id.length > 0
    ? line.parent_tool_use_id
    : null;
}

/** Whether a line names another `session_id` than the turn's `system/init` (a line naming none is the turn's). */
export function namesOtherSession(frame: Json, init: ClaudeSystemLine | null): boolean {
  const owned = init?.session_id;
  const named = frame.session_id;
  return typeof owned === "string" && typeof named === "string" && named !== "" && named !== owned;
}

/** The message of a stream `error` event, else the event as JSON. */
export function streamErrorText(event: Json): string {
  const error = asRecord(event.error);
  return typeof error.message === "string" ? error.message : JSON.stringify(event);
}
