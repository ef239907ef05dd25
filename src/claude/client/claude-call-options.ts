import type { ApprovalOptions, TurnLimits } from "../../harness/approvals.js";
import type { McpPolicy } from "../../mcp/mcp-policy.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import type { Launcher } from "../../process/stdio-child.js";
import type { AppTool } from "../../tools/define-tool.js";

/** Claude Code's effort levels (`--effort`); `xhigh` needs 2.1.111 or newer, any level 2.1.38 or newer. */
export type ClaudeEffort = "low" | "medium" | "high" | "xhigh" | "max";

/** Deadlines of a Claude Code call. */
export interface ClaudeTimeouts {
  /** The overall deadline covering the whole session (finding claude, spawn, the turn); null or absent: none. */
  turnMs?: number | null | undefined;
}

/** Options of `createClaudeCode()`; the keys it knows are listed in `claude-known-options.ts`. */
export interface ClaudeCodeClientOptions {
  /**
   * Which Claude Code to run: the path of a `claude` executable, checked without running it (no discovery, no
   * probe; a relative one is resolved against `process.cwd()`, never against a call's `cwd`). Default: discovery, once per client and working directory (`RENNET_CLAUDE_BIN` first, then the
   * login-shell PATH, the process PATH, known install locations). When nothing works the turn fails before
   * spawning, with `failure.code: "CLAUDE_UNAVAILABLE"`.
   */
  claude?: string | undefined;
  /** Environment for the child. Default: `process.env`. Each call's `env` goes on top. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Starts the child; tests pass `InMemoryClaude#launcher`. With one, no executable is looked up. */
  launcher?: Launcher | undefined;
  /** Grace after the `interrupt` control request before the tree is killed. Default 2000 ms. */
  interruptGraceMs?: number | undefined;
  /** Reap process trees left by a Rennet process that died hard, before each session. Default true. */
  reapOrphans?: boolean | undefined;
}

/** Options of one Claude Code call (`run`, `runStreamed`). */
export interface ClaudeCodeCallOptions {
  /** The user prompt; written to claude's stdin, never to its command line. */
  prompt: string;
  /** Working directory of the turn. Default: `process.cwd()`. */
  cwd?: string | undefined;
  /** Model for this turn (`--model`). Default: Claude Code's own. */
  model?: string | undefined;
  /** Effort for this turn (`--effort`). Default: the model's own. */
  effort?: ClaudeEffort | undefined;
  /** Local image files sent before the prompt as image content blocks; relative paths resolve against `cwd`. */
  images?: readonly string[] | undefined;
  /** Variables added to the child's environment for this call (over the client's `env`). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Cancels the call; `run()` then rejects with `signal.reason`. */
  signal?: AbortSignal | undefined;
  timeouts?: ClaudeTimeouts | undefined;
  /**
   * Which MCP servers the turn may use: `{servers:[…]}` (default `{servers: []}`: loopback URLs only; neither
   * the user's `~/.claude.json` servers nor the repository's `.mcp.json` start), or `"inherit"` (Claude Code's
   * own MCP configuration decides). An invalid policy throws `McpPolicyError` before anything starts.
   */
  mcp?: McpPolicy | undefined;
  /**
   * Let the repository's own Claude settings in (`.claude/settings.json`, `settings.local.json`: hooks, env,
   * MCP approvals, permissions). Default false: only the user's own settings apply.
   */
  trustProject?: boolean | undefined;
  /**
   * Keep the session's transcript in the user's Claude history so that a later call can `resume` it. Default
   * false (`--no-session-persistence`): nothing is written there.
   */
  keepThread?: boolean | undefined;
  /**
   * Continue this session (the `threadId` of a turn that ran with `keepThread`) in a fresh child. A hyphenated
   * UUID (8-4-4-4-12, passed in lower case); anything else throws `RESUME_ID_INVALID` before anything starts.
   */
  resume?: string | undefined;
  /** Claude Code stops the turn once it has spent more than this, in US dollars (`--max-budget-usd`). */
  maxBudgetUsd?: number | undefined;
  /**
   * Route Claude's permission prompts and questions to the app: the turn runs in a permission mode that asks
   * (`mode` `untrusted`: `default`; `on-request`: `acceptEdits`) with the prompts sent to Rennet
   * (`--permission-prompt-tool stdio`). Default: none; `bypassPermissions`, nothing asks. docs/approvals.md.
   */
  approvals?: ApprovalOptions | undefined;
  /** Stop the turn as `cancelled` at a limit (`maxCostUsd` is also Claude's own `--max-budget-usd`). */
  limits?: TurnLimits | undefined;
  /**
   * The app's own tools for this turn (`defineTool(…)` values with distinct names), run in this process when
   * the agent calls them; Claude Code reaches them over its own stdio as the MCP server `rennet` (the model
   * sees `mcp__rennet__<name>`). See docs/app-tools.md.
   */
  tools?: readonly AppTool<never>[] | undefined;
}

/**
 * What every turn of a conversation shares (`claude.conversation()`): the call options but those of one turn
 * (`prompt`, `signal`, `images`: `chat.run(prompt, { signal, images })`) and those the conversation owns
 * (`keepThread`, `resume`).
 */
export type ClaudeConversationOptions = Omit<
  ClaudeCodeCallOptions,
  "prompt" | "signal" | "images" | "keepThread" | "resume"
> & {
  /**
   * Continue this kept thread (the `threadId` of a turn run with `keepThread`) instead of starting a new one; not
   * a Claude Code session id: `conversation()` throws `RESUME_ID_INVALID`.
   */
  threadId?: string | undefined;
};

/** Options of `claude.utility()` / `utilityStreamed()`: a call whose answer is a value of `schema`. */
export interface ClaudeUtilityCallOptions<
  S extends JsonSchemaObject = JsonSchemaObject,
> extends ClaudeCodeCallOptions {
  /** A JSON Schema (root `type: "object"`) for the answer; Claude Code's `--json-schema`, validated by Rennet too. */
  schema: S;
}
