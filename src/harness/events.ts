/**
 * The common harness event stream. Every event carries an adapter-assigned `seq` (strictly increasing from 1
 * within one session) and ends with exactly one `terminal` event. See docs/events.md.
 */

/** Token usage for a whole turn (summed over every model request the turn made). */
export interface Usage {
  /** Input tokens, cached ones included (read from the cache and written to it). */
  inputTokens: number;
  /** The part of `inputTokens` that was read from the prompt cache. */
  cacheReadTokens: number;
  /** The part of `inputTokens` that was written to the prompt cache; 0 when the agent reports none. */
  cacheWriteTokens: number;
  /** Output tokens, reasoning included. */
  outputTokens: number;
  /** The part of `outputTokens` spent on reasoning. */
  reasoningTokens: number;
  totalTokens: number;
  /**
   * What the turn cost in US dollars, as the agent computed it (Claude Code's `total_cost_usd`); absent when
   * the agent reports no cost (Codex).
   */
  costUsd?: number;
}

/** Which agent CLI a session drives. */
export type HarnessName = "codex" | "claude-code";

/** Fields every harness event carries. */
export interface EventBase {
  /** Adapter-assigned, strictly increasing from 1. */
  seq: number;
  /** The agent CLI this session drives; the same for every event of a session. */
  harness: HarnessName;
  /** Rennet's own id for this session (not an id of the agent's). */
  sessionId: string;
  /** The owned turn's id as the agent names it, or null before the turn started. */
  turnId: string | null;
  /** ISO-8601 time at which the adapter emitted the event. */
  at: string;
}

/**
 * Whether the session's working directory is treated as a trusted project, and why. An untrusted project's own
 * agent settings (for Codex: the repository's `.codex/` layer with its MCP servers, hooks, instructions and
 * model) are not loaded. See docs/security.md.
 */
export interface ProjectTrust {
  level: "trusted" | "untrusted";
  /**
   * `user-config`: the user's own agent configuration has an entry for the directory or an ancestor (`path`);
   * `call`: the call said so (`trustProject`); `default`: neither, so the project is untrusted.
   */
  source: "user-config" | "call" | "default";
  /** With `source: "user-config"`: the configured directory the decision came from. */
  path?: string;
}

/**
 * What a tool call does: `command` (a shell command), `fileChange` (an edit or a write), `fileRead`, `search`
 * (files or contents: grep, glob, listing), `webFetch`, `webSearch`, `mcp` (a tool of an MCP server), `dynamic`
 * (a tool the app defined), `subagent` (a delegated agent run), `plan` (the agent's own checklist tools; the
 * checklist itself arrives as `plan.updated`) or `other` (an agent tool with none of these meanings).
 */
export type ToolKind =
  | "command"
  | "fileChange"
  | "fileRead"
  | "search"
  | "mcp"
  | "dynamic"
  | "webFetch"
  | "webSearch"
  | "subagent"
  | "plan"
  | "other";

/**
 * Set on the events of work an agent delegated to a subagent (Claude Code's `Task`/`Agent` tool): the `itemId`
 * of that tool call. Absent on the main agent's own events. Delta events never carry it: text and reasoning
 * deltas are the main agent's only, and a `tool.output` belongs to the `tool.started` of the same `itemId`.
 */
export interface SubagentScoped {
  parentToolId?: string;
}

export interface SessionStartedEvent extends EventBase {
  type: "session.started";
  threadId: string;
  model: string | null;
  cwd: string | null;
  /** The agent CLI's version as it reported it (e.g. `0.171.0`), when known. */
  harnessVersion: string | null;
  pid: number | null;
  /** The trust the session's cwd got (see {@link ProjectTrust}). */
  trust?: ProjectTrust;
}

export interface TurnStartedEvent extends EventBase {
  type: "turn.started";
  threadId: string;
}

export interface TextDeltaEvent extends EventBase {
  type: "text.delta";
  itemId: string;
  text: string;
}

export interface TextCompletedEvent extends EventBase, SubagentScoped {
  type: "text.completed";
  itemId: string;
  text: string;
}

export interface ReasoningDeltaEvent extends EventBase {
  type: "reasoning.delta";
  itemId: string;
  text: string;
  /** `summary` for reasoning summaries, `content` for raw reasoning text. */
  kind: "summary" | "content";
}

export interface ReasoningCompletedEvent extends EventBase, SubagentScoped {
  type: "reasoning.completed";
  itemId: string;
  summary: string[];
}

export interface ToolStartedEvent extends EventBase, SubagentScoped {
  type: "tool.started";
  itemId: string;
  tool: ToolKind;
  /** Short human-readable title: the command line, the patched paths, `server.tool`, the query. */
  title: string;
  /** The native item: Codex's item; Claude Code's `tool_use` block (see docs/events.md). */
  item: Record<string, unknown>;
}

export interface ToolOutputEvent extends EventBase {
  type: "tool.output";
  itemId: string;
  tool: ToolKind;
  /** A chunk of streamed output (command stdout/stderr, file-change progress). */
  text: string;
}

export interface ToolCompletedEvent extends EventBase, SubagentScoped {
  type: "tool.completed";
  itemId: string;
  tool: ToolKind;
  title: string;
  /** Native item status, e.g. `completed`, `failed`, `declined`. */
  status: string | null;
  /** Command exit code when the tool is a command. */
  exitCode: number | null;
  item: Record<string, unknown>;
}

export interface UsageEvent extends EventBase {
  type: "usage";
  /** Usage of the owned turn so far. */
  usage: Usage;
  /** Usage of the most recent model request. */
  last: Usage;
  modelContextWindow: number | null;
}

export interface RequestAnsweredEvent extends EventBase {
  type: "request.answered";
  method: string;
  /** The JSON-RPC id of the server request. */
  requestId: number | string;
  params: unknown;
  /** What Rennet replied: a result body or a JSON-RPC error. */
  reply: { result: unknown } | { error: { code: number; message: string } };
}

export interface WarningEvent extends EventBase {
  type: "warning";
  message: string;
  /** The native method that produced the warning (`error` with willRetry, `warning`, `configWarning`, …). */
  method: string;
  native: unknown;
}

/** One step of the turn's plan. */
export interface PlanStep {
  step: string;
  /** `pending`, `inProgress` or `completed` (kept as sent for a status this adapter does not know). */
  status: string;
}

/** The owned turn's plan changed (`turn/plan/updated`): the whole checklist as it now stands. */
export interface PlanUpdatedEvent extends EventBase {
  type: "plan.updated";
  steps: PlanStep[];
  explanation: string | null;
  /** The notification's params as sent. */
  native: unknown;
}

/** The owned turn's unified diff so far (`turn/diff/updated`): every file change of the turn, aggregated. */
export interface DiffUpdatedEvent extends EventBase {
  type: "diff.updated";
  diff: string;
  native: unknown;
}

/** One file a `fileChange` item changed. */
export interface FileChange {
  path: string;
  /** `add`, `delete` or `update` (an object form is reduced to its `type`). */
  kind: string;
  /** The change as a unified diff, when codex sent one. */
  diff: string | null;
}

/** A completed `fileChange` item of the owned turn, besides its `tool.completed`. */
export interface FileChangedEvent extends EventBase, SubagentScoped {
  type: "file.changed";
  itemId: string;
  status: string | null;
  changes: FileChange[];
}

/** One rate-limit window of the account. */
export interface RateLimitWindow {
  usedPercent: number | null;
  /** Unix seconds when the window resets, when known. */
  resetsAt: number | null;
  windowDurationMins: number | null;
}

/** The account's rate limits changed (`account/rateLimits/updated`); no credential is involved. */
export interface RateLimitsEvent extends EventBase {
  type: "rate-limits";
  primary: RateLimitWindow | null;
  secondary: RateLimitWindow | null;
  native: unknown;
}

/** An item of the owned turn that is neither text, reasoning nor a tool (user message, plan, compaction, …). */
export interface ItemEvent extends EventBase {
  type: "item";
  phase: "started" | "completed";
  itemId: string | null;
  /** Native item type, e.g. `userMessage`, `plan`, `contextCompaction`, or one this version does not know. */
  itemType: string;
  item: Record<string, unknown>;
}

/**
 * A notification of a method that this adapter knows but gives no harness meaning (thread status, rate
 * limits, diffs, …). It never changes the turn; it is kept so that nothing is dropped.
 */
export interface NativeEvent extends EventBase {
  type: "native";
  method: string;
  params: unknown;
  /**
   * Present (always `true`) on a legacy `codex/event/*` notification: codex up to 0.114 sends these beside the
   * v2 notifications, duplicating them (~20 per turn). Kept as evidence; the human renderer never shows them.
   */
  legacy?: true;
}

export type PassthroughReason = "foreign" | "unknown";

export interface PassthroughEvent extends EventBase {
  type: "passthrough";
  reason: PassthroughReason;
  /** The frame exactly as received. */
  native: unknown;
}

export type TerminalOutcome = "completed" | "failed" | "cancelled";

export type FailureSource = "turn" | "jsonrpc" | "exit" | "spawn" | "parse";

/** Present on a failure caused by a watchdog: which step stalled and the deadline it missed. */
export interface StallDetail {
  /** `initialize`, `thread/start`, `turn/start` (the acknowledgement) or `turn` (the overall deadline). */
  step: string;
  timeoutMs: number;
}

export interface FailureBase {
  source: FailureSource;
  message: string;
}

export interface TurnFailure extends FailureBase {
  source: "turn";
  /**
   * The agent's own error classification, passed through untouched: Codex's `codexErrorInfo` (string or object
   * form); null when the agent gave none.
   */
  errorInfo: unknown;
  additionalDetails: unknown;
  /** Set when the overall turn deadline expired. */
  timeout?: StallDetail;
}

export interface JsonRpcFailure extends FailureBase {
  source: "jsonrpc";
  method: string;
  /** JSON-RPC error code; null when the request got no answer before its deadline. */
  code: number | null;
  data: unknown;
  /** Set when the request's deadline expired. */
  timeout?: StallDetail;
  /**
   * Why codex refused, where Rennet can tell: `thread-not-found` for a `thread/resume` of a thread codex has no
   * saved history of (an unknown id, or a thread whose turns ran ephemeral).
   */
  refusal?: "thread-not-found";
}

export interface ExitFailure extends FailureBase {
  source: "exit";
  exitCode: number | null;
  signal: string | null;
  /** The last few KiB of the child's stderr. */
  stderrTail: string;
}

export interface SpawnFailure extends FailureBase {
  source: "spawn";
  /** OS error code, e.g. `ENOENT`, `EACCES`; null when the failure happened before any spawn. */
  errno: string | null;
  command: string;
  /** Rennet's error code when a pre-launch step failed (e.g. `MCP_INVENTORY_FAILED`, `CODEX_UNAVAILABLE`). */
  code?: string;
}

export interface ParseFailure extends FailureBase {
  source: "parse";
  /** The offending input, truncated. */
  line: string;
  /** Validation errors when the failure comes from structured-output validation. */
  errors?: string[];
}

export type Failure = TurnFailure | JsonRpcFailure | ExitFailure | SpawnFailure | ParseFailure;

/** A limit that stopped a turn: which one, the value it was set to and what the turn had reached. */
export interface TurnLimit {
  /** `maxCostUsd` (Claude Code's `--max-budget-usd`). */
  name: "maxCostUsd" | "maxTokens" | "maxToolCalls" | "maxDurationMs";
  /** The limit as set; null when the agent did not say. */
  value: number | null;
  /** What the turn had reached when it stopped (e.g. its cost in US dollars); null when unknown. */
  reached: number | null;
}

/**
 * How a cancelled turn ended: `interrupted` when the agent stopped the turn itself (after Rennet's interrupt,
 * or at a limit), `killed` otherwise, `before-turn` before one existed.
 */
export interface Cancellation {
  via: "interrupted" | "killed" | "before-turn";
  /** The reason given to `cancel()` or the signal's, as text; `limit` when a limit stopped the turn. */
  reason: string;
  /** Set when a limit stopped the turn (`reason: "limit"`). */
  limit?: TurnLimit;
}

/** What every terminal frame carries, whatever its outcome. */
export interface TerminalEventBase extends EventBase {
  type: "terminal";
  finalMessage: string | null;
  usage: Usage | null;
  model: string | null;
  threadId: string | null;
  /** Parsed, validated value of a utility call (see `codex.utility`); set on a completed one. */
  structuredOutput?: unknown;
  /** The trust the session's cwd got; absent when the session ended before it was decided. */
  trust?: ProjectTrust;
}

/** The turn completed. */
export interface CompletedTerminalEvent extends TerminalEventBase {
  outcome: "completed";
  failure: null;
  cancellation: null;
}

/** The turn failed: `failure` says where (`source`) and why. */
export interface FailedTerminalEvent extends TerminalEventBase {
  outcome: "failed";
  failure: Failure;
  cancellation: null;
}

/** The turn was cancelled: `cancellation` says how and why. */
export interface CancelledTerminalEvent extends TerminalEventBase {
  outcome: "cancelled";
  failure: null;
  cancellation: Cancellation;
}

/**
 * The one frame that ends every stream, a union on `outcome`: `failure` is non-null exactly when the turn
 * failed, `cancellation` exactly when it was cancelled (`if (t.outcome === "failed") t.failure.message`).
 */
export type TerminalEvent = CompletedTerminalEvent | FailedTerminalEvent | CancelledTerminalEvent;

export type HarnessEvent =
  | SessionStartedEvent
  | TurnStartedEvent
  | TextDeltaEvent
  | TextCompletedEvent
  | ReasoningDeltaEvent
  | ReasoningCompletedEvent
  | ToolStartedEvent
  | ToolOutputEvent
  | ToolCompletedEvent
  | UsageEvent
  | RequestAnsweredEvent
  | WarningEvent
  | ItemEvent
  | PlanUpdatedEvent
  | DiffUpdatedEvent
  | FileChangedEvent
  | RateLimitsEvent
  | NativeEvent
  | PassthroughEvent
  | TerminalEvent;

export type HarnessEventType = HarnessEvent["type"];

/** An event before the session stamps `seq`, `harness`, `sessionId`, `turnId` and `at`. */
export type EventBody = HarnessEvent extends infer E
  ? E extends HarnessEvent
    ? Omit<E, keyof EventBase>
    : never
  : never;
