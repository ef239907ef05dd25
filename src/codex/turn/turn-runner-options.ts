import type { Failure } from "../../harness/events.js";
import type { Launcher } from "../../process/app-server-process.js";
import type { CodexLaunch } from "../codex-launch.js";
import type { TurnRequestOptions } from "../protocol-requests.js";

/** Deadlines for each step of a turn, in milliseconds. */
export interface TurnTimeouts {
  /** `initialize` response. Default 30 000. */
  initializeMs: number;
  /** `thread/start` response (and the `config/read` before it). Default 30 000. */
  threadStartMs: number;
  /** `turn/start` acknowledgement. Default 30 000. */
  turnStartMs: number;
  /** The whole session, from the call to the terminal frame (discovery, spawn, handshake and turn). Default: none. */
  turnMs: number | null;
}

export const DEFAULT_TIMEOUTS: TurnTimeouts = {
  initializeMs: 30_000,
  threadStartMs: 30_000,
  turnStartMs: 30_000,
  turnMs: null,
};

/** After `turn/interrupt`, how long to wait for the interrupted `turn/completed` before killing. */
export const DEFAULT_INTERRUPT_GRACE_MS = 2_000;

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
}

export interface TurnRunnerOptions extends TurnRequestOptions {
  /** Decides what to launch (reaping, discovery, the MCP policy); may reject. Default: `codex` with no arguments. */
  prepare?: (signal: AbortSignal) => Promise<PreparedLaunch>;
  /** The Codex to launch when there is no `prepare`. */
  codex?: CodexLaunch;
  /** Arguments after `app-server`, before those `prepare` adds. */
  appServerArgs?: readonly string[];
  /** Environment the child inherits (default `process.env`); the launch's own variables go on top. */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeouts?: Partial<TurnTimeouts>;
  interruptGraceMs?: number;
  /** Starts the child. Tests pass an in-memory fake. */
  launcher: Launcher;
  completionCheck?: CompletionCheck;
  sessionId?: string;
  /** Clock for `at` stamps; tests inject a fixed one. */
  now?: () => Date;
}
