/** What every harness event carries, and what a session knows of its agent and its working directory. */

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
   * the agent reports no cost.
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
 * agent settings (the repository's agent config directory with its MCP servers, hooks, instructions and model)
 * are not loaded. See docs/security.md.
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
 * Set on the events of work an agent delegated to a subagent (Claude Code's `Task`/`Agent` tool): the `itemId`
 * of that tool call. Absent on the main agent's own events. Delta events never carry it: text and reasoning
 * deltas are the main agent's only, and a `tool.output` belongs to the `tool.started` of the same `itemId`.
 */
export interface SubagentScoped {
  parentToolId?: string;
}
