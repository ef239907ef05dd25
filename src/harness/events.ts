/**
 * The common harness event stream. Every event carries an adapter-assigned `seq` (strictly increasing from 1
 * within one session) and ends with exactly one `terminal` event. See docs/events.md.
 */

import type { EventBase, ProjectTrust, SubagentScoped, Usage } from "./event-base.js";
import type { TerminalEvent } from "./terminal-events.js";
import type { ToolCompletedEvent, ToolOutputEvent, ToolStartedEvent } from "./tool-events.js";
import type {
  ApprovalDecider,
  ApprovalDecision,
  ApprovalKind,
  ApprovalRequest,
  FileChange,
} from "./approvals.js";

export type * from "./event-base.js";
export type * from "./terminal-events.js";
export type * from "./approvals.js";
export type * from "./tool-events.js";

/** The session is ready: the agent started its thread (`threadId`) in `cwd`; emitted once, before the turn's events. */
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

/** The agent started the owned turn (`turnId` is set from here on). */
export interface TurnStartedEvent extends EventBase {
  type: "turn.started";
  threadId: string;
}

/** A chunk of the agent's reply text as it streams; the chunks of one `itemId` end in its `text.completed`. */
export interface TextDeltaEvent extends EventBase {
  type: "text.delta";
  itemId: string;
  text: string;
}

/** One agent message, complete (`text`); the terminal frame's `finalMessage` is the turn's answer among them. */
export interface TextCompletedEvent extends EventBase, SubagentScoped {
  type: "text.completed";
  itemId: string;
  text: string;
}

/** A chunk of the agent's reasoning as it streams: a summary, or raw reasoning text (`kind`). */
export interface ReasoningDeltaEvent extends EventBase {
  type: "reasoning.delta";
  itemId: string;
  text: string;
  /** `summary` for reasoning summaries, `content` for raw reasoning text. */
  kind: "summary" | "content";
}

/** One reasoning item, complete: its summary parts. */
export interface ReasoningCompletedEvent extends EventBase, SubagentScoped {
  type: "reasoning.completed";
  itemId: string;
  summary: string[];
}

/** Token usage of the owned turn so far (`usage`) and of its latest model request (`last`). */
export interface UsageEvent extends EventBase {
  type: "usage";
  /** Usage of the owned turn so far. */
  usage: Usage;
  /** Usage of the most recent model request. */
  last: Usage;
  modelContextWindow: number | null;
}

/** The agent sent a request to its client and Rennet answered it (`reply`): every such request is recorded. */
export interface RequestAnsweredEvent extends EventBase {
  type: "request.answered";
  method: string;
  /** The JSON-RPC id of the server request. */
  requestId: number | string;
  params: unknown;
  /** What Rennet replied: a result body or a JSON-RPC error. */
  reply: { result: unknown } | { error: { code: number; message: string } };
}

/** The agent asked for approval and the request went to the app's handler (`approvals.onRequest`). */
export interface ApprovalRequestedEvent extends EventBase {
  type: "approval.requested";
  /** The request's `id`; its `approval.resolved` carries the same. */
  requestId: string;
  request: ApprovalRequest;
}

/** An approval request was answered: every `approval.requested` gets exactly one, before the terminal frame. */
export interface ApprovalResolvedEvent extends EventBase {
  type: "approval.resolved";
  requestId: string;
  kind: ApprovalKind;
  /** What the agent was told. */
  decision: ApprovalDecision;
  /**
   * `handler`: the handler's own answer; `default`: the handler threw, rejected or returned no decision the
   * request offers (`error` says which), so `decline`; `deadline`: it did not answer within `timeoutMs`, so
   * `decline`; `cancel`: the turn was cancelled or ended first, so `cancel`.
   */
  decidedBy: ApprovalDecider;
  /** From the request's arrival to the answer, in ms. */
  durationMs: number;
  /** With `decidedBy: "default"`: what went wrong in the handler. */
  error?: string;
}

/** A warning from the agent (a retried error, a config or deprecation notice) or from Rennet; the turn goes on. */
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
   * Present (always `true`) on a notification of an older generation that the agent sends beside the current
   * ones, duplicating them (docs/events.md names them). Kept as evidence; the human renderer never shows them.
   */
  legacy?: true;
}

/** Why a frame is passed through: `foreign` (another thread's or turn's), `unknown` (a method Rennet does not know). */
export type PassthroughReason = "foreign" | "unknown";

/** A frame Rennet does not own or does not know, kept as received (`native`); it never changes the owned turn. */
export interface PassthroughEvent extends EventBase {
  type: "passthrough";
  reason: PassthroughReason;
  /** The frame exactly as received. */
  native: unknown;
}

/**
 * One event of a session's stream, a union on `type` (`if (event.type === "text.delta")` narrows it); every
 * stream ends with exactly one `terminal` event. docs/events.md lists each type, where it comes from and its fields.
 */
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
  | ApprovalRequestedEvent
  | ApprovalResolvedEvent
  | WarningEvent
  | ItemEvent
  | PlanUpdatedEvent
  | DiffUpdatedEvent
  | FileChangedEvent
  | RateLimitsEvent
  | NativeEvent
  | PassthroughEvent
  | TerminalEvent;

/** The `type` of every {@link HarnessEvent}. */
export type HarnessEventType = HarnessEvent["type"];

/** An event before the session stamps `seq`, `harness`, `sessionId`, `turnId` and `at`. */
export type EventBody = HarnessEvent extends infer E
  ? E extends HarnessEvent
    ? Omit<E, keyof EventBase>
    : never
  : never;
