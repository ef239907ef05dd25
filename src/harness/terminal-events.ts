/** The terminal frame that ends every session's stream, and the failures and cancellations it reports. */
import type { RennetErrorCode } from "../error-codes.js";
import type { EventBase, ProjectTrust, Usage } from "./event-base.js";

/** How a session ended: its turn completed, it failed (see {@link Failure}), or it was cancelled. */
export type TerminalOutcome = "completed" | "failed" | "cancelled";

/**
 * What failed: the agent's turn (`turn`), a request to the agent (`jsonrpc`), the child process (`exit`), its
 * start (`spawn`), or a line or structured output that could not be read (`parse`).
 */
export type FailureSource = "turn" | "jsonrpc" | "exit" | "spawn" | "parse";

/** Present on a failure caused by a watchdog: which step stalled and the deadline it missed. */
export interface StallDetail {
  /** `initialize`, `thread/start`, `turn/start` (the acknowledgement) or `turn` (the overall deadline). */
  step: string;
  timeoutMs: number;
}

/** What every {@link Failure} carries: its source and a message naming the cause (the provider's or the process's). */
export interface FailureBase {
  source: FailureSource;
  message: string;
}

/** The agent ended its turn as failed: the provider's message and the agent's own classification. */
export interface TurnFailure extends FailureBase {
  source: "turn";
  /**
   * The agent's own error classification, passed through untouched (docs/events.md names each agent's field);
   * null when the agent gave none.
   */
  errorInfo: unknown;
  additionalDetails: unknown;
  /** Set when the overall turn deadline expired. */
  timeout?: StallDetail;
}

/** A request to the agent was refused or went unanswered before its deadline. */
export interface JsonRpcFailure extends FailureBase {
  source: "jsonrpc";
  method: string;
  /** JSON-RPC error code; null when the request got no answer before its deadline. */
  code: number | null;
  data: unknown;
  /** Set when the request's deadline expired. */
  timeout?: StallDetail;
  /**
   * Why the agent refused, where Rennet can tell: `thread-not-found` for resuming a thread the agent has no
   * saved history of (an unknown id, or a thread whose turns ran ephemeral); `thread-busy` for resuming a thread
   * whose turn another agent process is running (an agent that allows one writer per thread).
   */
  refusal?: "thread-not-found" | "thread-busy";
}

/** The agent's process exited, or closed its output, before the turn ended. */
export interface ExitFailure extends FailureBase {
  source: "exit";
  exitCode: number | null;
  signal: string | null;
  /** The last few KiB of the child's stderr. */
  stderrTail: string;
}

/** The agent could not be started, or a step before its start failed (discovery, MCP inventory, trust). */
export interface SpawnFailure extends FailureBase {
  source: "spawn";
  /** OS error code, e.g. `ENOENT`, `EACCES`; null when the failure happened before any spawn. */
  errno: string | null;
  command: string;
  /** Rennet's error code when a pre-launch step failed (e.g. `MCP_INVENTORY_FAILED`, or the harness's own "unavailable"). */
  code?: RennetErrorCode;
}

/** A line from the agent could not be read, or structured output did not match its schema. */
export interface ParseFailure extends FailureBase {
  source: "parse";
  /** The offending input, truncated. */
  line: string;
  /** Validation errors when the failure comes from structured-output validation. */
  errors?: string[];
}

/** Why a `failed` session failed, keyed on `source`. */
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
  /** Parsed, validated value of a utility call (structured output); set on a completed one. */
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
