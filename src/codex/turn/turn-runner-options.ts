import type { Failure } from "../../harness/events.js";
import type { ApprovalOptions, TurnLimits } from "../../harness/approvals.js";
import type { Launcher } from "../../process/stdio-child.js";
import type { CodexLaunch } from "../launch/codex-launch.js";
import type { TurnRequestOptions } from "../protocol/protocol-requests.js";
import type { ToolSet } from "../../tools/tool-set.js";
import type * as AppToolsMcp from "../../tools/app-tools-mcp.js";
import type { TurnRuntime } from "./turn-child.js";
import type { TurnTimeouts } from "./turn-timeouts.js";

/** Checks a completed turn's final message; the utility executor uses it to parse structured output. */
export type CompletionCheck = (
  finalMessage: string | null,
) => { ok: true; value: unknown } | { ok: false; failure: Failure };

/** What to launch, decided before anything is spawned. */
export interface PreparedLaunch {
  codex: CodexLaunch;
  /** Arguments after `app-server` (the MCP policy). */
  appServerArgs: readonly string[];
  /**
   * The MCP policy as a `thread/start` config fragment, for a codex that does not apply launch overrides to a
   * thread's MCP servers (decided from the version `initialize` reports).
   */
  mcpThreadConfig?: Record<string, unknown> | null;
  /** False when the MCP policy starts no server (an explicit policy naming none). Default true (inherited). */
  mcpServersMayStart?: boolean;
  /** Starts the child, in place of the runner's `launcher`. */
  launcher?: Launcher;
}

export interface TurnRunnerOptions extends TurnRequestOptions {
  /**
   * The half of a turn that starts and speaks to the child (`turn-child.ts`), or its loader: the client loads
   * it on its first session, so that importing the package loads none of it; tests pass it as is.
   */
  runtime: TurnRuntime | (() => Promise<TurnRuntime>);
  /** Decides what to launch (reaping, discovery, the MCP policy); may reject. Default: `codex` with no arguments. */
  prepare?: (signal: AbortSignal) => Promise<PreparedLaunch>;
  /** The Codex to launch when there is no `prepare`. */
  codex?: CodexLaunch;
  /**
   * The executable a failure names until `prepare` has decided the launch (e.g. the path the caller gave,
   * which `prepare` may find missing). Default `codex`.
   */
  command?: string;
  /** Arguments after `app-server`, before those `prepare` adds. */
  appServerArgs?: readonly string[];
  /** Environment the child inherits (default `process.env`); the launch's own variables go on top. */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeouts?: Partial<TurnTimeouts>;
  interruptGraceMs?: number;
  /** Starts the child unless `prepare` returns a launcher. Tests pass an in-memory fake. */
  launcher?: Launcher;
  completionCheck?: CompletionCheck;
  /** The app's handlers for approval requests and questions (with `approvalMode` set from its `mode`). */
  approvals?: ApprovalOptions;
  /** Limits that cancel the turn (`cancellation.reason: "limit"`). */
  limits?: TurnLimits;
  /** The session's app tools, checked (`toolSet`); null or absent: none. */
  tools?: ToolSet | null;
  /** Loads the app tools' loopback MCP server for a codex before dynamic tools (the client's lazy entry). */
  loadAppToolsMcp?: () => Promise<typeof AppToolsMcp>;
  sessionId?: string;
  /** Clock for `at` stamps; tests inject a fixed one. */
  now?: () => Date;
}

/**
 * Where a session is: `starting` (preparing the launch), `handshaking` (child spawned, before the turn is
 * acknowledged), `running`, `cancelling` (`turn/interrupt` sent, waiting for the interrupted `turn/completed`
 * within the grace), `settling` (the owned turn completed with tools still open: their late `item/completed`
 * is awaited for at most {@link LATE_TOOL_COMPLETION_MS}), `ended` (the terminal frame is out; nothing else is
 * emitted).
 */
export type RunnerState = "starting" | "handshaking" | "running" | "cancelling" | "settling" | "ended";

/**
 * How long a completed turn waits for the `item/completed` of a tool still open at `turn/completed`: codex
 * sends a command's completion up to ~100 ms after the turn's (measured 7–65 ms on 0.118–0.145), or never for
 * a command that left a background child; after the wait the tool is completed with `status: "unknown"`.
 */
export const LATE_TOOL_COMPLETION_MS = 300;
