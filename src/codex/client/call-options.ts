import type { ApprovalOptions, TurnLimits } from "../../harness/approvals.js";
import type { McpPolicy } from "../../mcp/mcp-policy.js";
import type { AppTool } from "../../tools/define-tool.js";
import type { CompletionCheck } from "../turn/turn-runner-options.js";
import type { TurnTimeouts } from "../turn/turn-timeouts.js";

/** Options shared by every Codex call. */
export interface CodexCallOptions {
  /** The user prompt. */
  prompt: string;
  /** Working directory for the thread and its commands, fixed at the call (a relative one against `process.cwd()` then). Default: `process.cwd()` at the call. */
  cwd?: string | undefined;
  /** Model override; default: the user's Codex configuration. */
  model?: string | undefined;
  /** Cancels the call; `run()` then rejects with `signal.reason`. */
  signal?: AbortSignal | undefined;
  /** Deadlines per step; see {@link TurnTimeouts}. An entry left out or `undefined` keeps its default. */
  timeouts?: { [K in keyof TurnTimeouts]?: TurnTimeouts[K] | undefined } | undefined;
  /** Keep the thread out of the user's Codex history. Default true. Set false to continue the thread later. */
  ephemeral?: boolean | undefined;
  /**
   * Continue this thread (the `threadId` of an earlier terminal frame of a non-ephemeral turn) in a fresh child,
   * with `thread/resume` and the cwd, policies and MCP policy of this call (another cwd than the thread's first
   * is allowed: the thread continues there). Not a UUID: `InvalidTurnInputError` `RESUME_ID_INVALID` before
   * anything starts. A thread codex has no history of (unknown, or its turns ran ephemeral): the turn fails with
   * a `jsonrpc` failure of `thread/resume` marked `refusal: "thread-not-found"`. Every supported codex resumes.
   */
  resume?: string | undefined;
  /** Local image files sent with the prompt (`localImage` inputs); relative paths resolve against `cwd`. */
  images?: readonly string[] | undefined;
  /** Reasoning summaries for this turn: `auto`, `concise`, `detailed` or `none`. Default: codex's. */
  reasoningSummary?: "auto" | "concise" | "detailed" | "none" | undefined;
  /**
   * Which MCP servers the child may use: `"inherit"` (default: the user's configuration, untouched), or
   * `{servers:[…]}` (loopback URLs only; every other configured server is disabled, plugins off). An invalid
   * policy throws `McpPolicyError` before anything starts. See docs/mcp-policy.md.
   */
  mcp?: McpPolicy | undefined;
  /**
   * Whether the cwd's project is trusted for this call: `true` loads the repository's own `.codex/` layer
   * (its MCP servers, hooks, instructions, model) unless the user's Codex config marks the directory (or its
   * project root) `untrusted`; `false` keeps the layer out even where that config trusts it. Omitted: the user's
   * own `trust_level` entry for the cwd, else for its project root (the nearest directory up with `.git`; a
   * linked worktree's main repository too), else untrusted; an entry for another ancestor does not count, as in
   * codex. Nothing is written.
   * The decision is on `session.started` and the terminal frame (`trust`). See docs/security.md.
   */
  trustProject?: boolean | undefined;
  /**
   * Route approval requests and questions to the app (docs/approvals.md): the turn then runs with approval
   * policy `untrusted` (or `mode: "on-request"`) in the `workspace-write` sandbox instead of full access, and
   * every approval request goes to `onRequest`. Without it, nothing ever asks (full access, policy `never`).
   */
  approvals?: ApprovalOptions | undefined;
  /**
   * Stop the turn as `cancelled` (`cancellation.reason: "limit"`) at a duration, token or tool-call limit.
   * `maxCostUsd` is refused (`LIMIT_UNSUPPORTED`): Codex reports no cost.
   */
  limits?: TurnLimits | undefined;
  /**
   * The app's own tools for this turn (`defineTool(…)` values with distinct names), run in this process when
   * the agent calls them; each call is a `tool.started`/`tool.completed` pair of kind `app`. Needs codex 0.100
   * or newer (`UnsupportedCodexFeatureError` before). A resumed thread keeps the tools offered at its start;
   * give the same ones. See docs/app-tools.md.
   */
  tools?: readonly AppTool<never>[] | undefined;
}

/** What every turn of a conversation shares (cwd, model, MCP policy, timeouts). */
export type ConversationOptions = Omit<
  CodexCallOptions,
  "prompt" | "signal" | "ephemeral" | "resume" | "images"
> & {
  /** Continue this kept thread instead of starting a new one; not a thread id: `conversation()` throws `RESUME_ID_INVALID`. */
  threadId?: string | undefined;
};

/** Internal: everything the runner accepts beyond the public call options. */
export interface InternalCallOptions extends CodexCallOptions {
  outputSchema?: unknown | undefined;
  effort?: string | undefined;
  completionCheck?: CompletionCheck | undefined;
}

export type { TurnResult } from "../../call/settle.js";
export type { ConversationRunOptions } from "../../call/conversation.js";
