/**
 * The option keys each public entry point knows, one list per options type. Each list is checked against its
 * type: an option added to a type without its key here (or a key here that the type lacks) does not compile.
 * Keys outside a list are refused before anything starts (see `option-check.ts`).
 */
import type { CodexCallOptions, ConversationOptions } from "./call-options.js";
import type { CodexClientOptions, ResolveCodexOptions } from "./client-options.js";
import type { TurnTimeouts } from "../turn/turn-timeouts.js";
import type { UtilityCallOptions } from "./utility-executor.js";
import type { ProjectTrustCheckOptions } from "../trust/project-trust-check.js";
import type { DiscoverOptions } from "../discovery/discover.js";
import type { McpIsolationCheckOptions } from "../mcp/mcp-isolation-check.js";
import { known, type KeySet } from "../../call/option-keys.js";
import {
  conversationPlaces,
  entryPointPlaces,
  SHARED_ALIASES,
  SHARED_CALL_KEYS,
  SHARED_CLIENT_KEYS,
} from "../../call/shared-option-keys.js";

export type { KnownOptions } from "../../call/option-keys.js";

const CALL_KEYS = {
  ...(SHARED_CALL_KEYS satisfies KeySet<Pick<CodexCallOptions, keyof typeof SHARED_CALL_KEYS>>),
  ephemeral: true,
  reasoningSummary: true,
} as const satisfies KeySet<CodexCallOptions>;

export const CLIENT_OPTIONS = known<CodexClientOptions>("createCodex() options", {
  ...(SHARED_CLIENT_KEYS satisfies KeySet<Pick<CodexClientOptions, keyof typeof SHARED_CLIENT_KEYS>>),
  codex: true,
  discovery: true,
});

export const CALL_OPTIONS = known<CodexCallOptions>("run() / runStreamed() options", CALL_KEYS);

export const UTILITY_OPTIONS = known<UtilityCallOptions>("utility() / utilityStreamed() options", {
  ...CALL_KEYS,
  schema: true,
  effort: true,
});

/** What a conversation shares across its turns: the call options but the per-turn ones. */
const {
  prompt: _prompt,
  signal: _signal,
  ephemeral: _ephemeral,
  resume: _resume,
  images: _images,
  ...SHARED_KEYS
} = CALL_KEYS;

export const CONVERSATION_OPTIONS = known<ConversationOptions>("conversation() options", {
  ...SHARED_KEYS,
  threadId: true,
});

export const RESOLVE_OPTIONS = known<ResolveCodexOptions>("resolveCodex() options", {
  cwd: true,
  signal: true,
});

export const TRUST_CHECK_OPTIONS = known<ProjectTrustCheckOptions>(
  "checkProjectTrust() options",
  {
    codex: true,
    cwd: true,
    env: true,
    trustProject: true,
    approvals: true,
    timeoutMs: true,
    signal: true,
    launcher: true,
    // a string may be the cwd or a path of codex, and neither alone is a call: no guess
  },
  null,
);

export const MCP_ISOLATION_OPTIONS = known<McpIsolationCheckOptions>(
  "runMcpIsolationCheck() options",
  {
    codex: true,
    cwd: true,
    env: true,
    signal: true,
    requestTimeoutMs: true,
    statusTimeoutMs: true,
    startupQuietMs: true,
    launcher: true,
  },
  null,
);

/** What discovery takes from a client's `discovery` option: the rest comes from the client and the call. */
const DISCOVERY_KEYS = {
  platform: true,
  homedir: true,
  arch: true,
  timeoutMs: true,
  loginShellTimeoutMs: true,
  loginShell: true,
  cacheDir: true,
  cache: true,
  cacheTtlMs: true,
  mode: true,
  launcher: true,
  systemRoot: true,
  wslExe: true,
  codexBin: true,
} as const satisfies KeySet<NonNullable<CodexClientOptions["discovery"]>>;

export const CLIENT_DISCOVERY_OPTIONS = known<NonNullable<CodexClientOptions["discovery"]>>(
  "createCodex({ discovery })",
  DISCOVERY_KEYS,
  null,
);

export const DISCOVER_OPTIONS = known<DiscoverOptions>(
  "discoverCodex() options",
  { ...DISCOVERY_KEYS, env: true, cwd: true, signal: true },
  "cwd",
);

export const TIMEOUT_OPTIONS = known<TurnTimeouts>("timeouts", {
  initializeMs: true,
  threadStartMs: true,
  turnStartMs: true,
  turnMs: true,
});

/**
 * What to use instead of an option of OpenAI's Codex SDK (`@openai/codex-sdk`: `CodexOptions`,
 * `ThreadOptions`, `TurnOptions`), by its name. A key that is a Rennet option of another call is pointed there
 * by {@link OTHER_PLACES}.
 */
export const SDK_OPTION_HINTS: ReadonlyMap<string, string> = new Map([
  ["workingDirectory", "use `cwd`"],
  ["codexPathOverride", 'pass the path to createCodex({ codex: "/path/to/codex" })'],
  ["modelReasoningEffort", "use `effort` of codex.utility() (an agentic turn takes the model's own)"],
  ["outputSchema", "use codex.utility({ prompt, schema }) for structured output"],
  [
    "sandboxMode",
    "Rennet runs full access, or the `workspace-write` sandbox when you pass `approvals` (docs/approvals.md)",
  ],
  [
    "approvalPolicy",
    "pass `approvals: { onRequest }` to decide approvals yourself (docs/approvals.md); without it none are asked",
  ],
  ["skipGitRepoCheck", "codex app-server runs outside a git repository as well: remove it"],
  ["networkAccessEnabled", "Rennet always runs full access, network included: remove it"],
  ["additionalDirectories", "Rennet always runs full access, every directory included: remove it"],
  [
    "baseUrl",
    "Rennet never handles endpoints or credentials: configure the model provider in the Codex config " +
      "(CODEX_HOME/config.toml; in tests, the testkit's createCodexHome({ modelUrl }))",
  ],
  [
    "apiKey",
    "Rennet never handles credentials: sign in with `codex login`, or configure the provider in the Codex " +
      "config (CODEX_HOME/config.toml)",
  ],
  [
    "config",
    "Rennet passes no config overrides: put settings in the Codex config, or point createCodex({ env }) at " +
      "another CODEX_HOME",
  ],
  ["configOverrides", "Rennet passes no config overrides: put settings in the Codex config"],
  ["webSearchMode", "not an option of Rennet: configure web search in the Codex config"],
  ["webSearchEnabled", "not an option of Rennet: configure web search in the Codex config"],
  ["threadSource", "not an option of Rennet: remove it"],
  ["cyberAccessProgram", "not an option of Rennet: remove it"],
]);

/** Names callers reach for that mean a Rennet option: the option, by name. */
export const OPTION_ALIASES: ReadonlyMap<string, string> = new Map([
  ["codexPath", "codex"],
  ["codexBin", "codex"],
  ["codexBinary", "codex"],
  ["executable", "codex"],
  ...SHARED_ALIASES,
]);

/** Where a key that belongs to another entry point goes, by key. */
export const OTHER_PLACES: ReadonlyMap<string, string> = new Map([
  ...entryPointPlaces("createCodex", CLIENT_OPTIONS.keys, CALL_OPTIONS.keys),
  ["schema", "`schema` is an option of codex.utility() / utilityStreamed()"],
  ["effort", "`effort` is an option of codex.utility() / utilityStreamed()"],
  ...conversationPlaces("codex"),
  [
    "threadId",
    "`threadId` is an option of codex.conversation(); a single call continues a thread with `resume`",
  ],
  [
    "ephemeral",
    "`ephemeral` is an option of each call (run, runStreamed, …); a conversation keeps its thread itself",
  ],
  // Claude Code's names for concepts Codex has under another name: an app switching agent meets these
  [
    "keepThread",
    "Claude Code's `keepThread: true` is `ephemeral: false` here (the thread is kept for `resume`)",
  ],
  [
    "maxBudgetUsd",
    "Claude Code's cost cap; codex reports no cost, so cap the turn with `limits.maxTokens` (and `maxDurationMs`)",
  ],
]);
