/**
 * The option keys each Claude Code entry point knows, one list per options type (checked against the type at
 * compile time), and what to write instead of a key it does not take.
 */
import { known, type KeySet, type OptionHints } from "../../call/option-keys.js";
import {
  conversationPlaces,
  entryPointPlaces,
  SHARED_ALIASES,
  SHARED_CALL_KEYS,
  SHARED_CLIENT_KEYS,
} from "../../call/shared-option-keys.js";
import type {
  ClaudeCodeCallOptions,
  ClaudeCodeClientOptions,
  ClaudeConversationOptions,
  ClaudeTimeouts,
  ClaudeUtilityCallOptions,
} from "./claude-call-options.js";

const CALL_KEYS = {
  ...(SHARED_CALL_KEYS satisfies KeySet<Pick<ClaudeCodeCallOptions, keyof typeof SHARED_CALL_KEYS>>),
  effort: true,
  env: true,
  keepThread: true,
  maxBudgetUsd: true,
} as const satisfies KeySet<ClaudeCodeCallOptions>;

export const CLAUDE_CLIENT_OPTIONS = known<ClaudeCodeClientOptions>("createClaudeCode() options", {
  ...(SHARED_CLIENT_KEYS satisfies KeySet<Pick<ClaudeCodeClientOptions, keyof typeof SHARED_CLIENT_KEYS>>),
  claude: true,
});

export const CLAUDE_CALL_OPTIONS = known<ClaudeCodeCallOptions>("run() / runStreamed() options", CALL_KEYS);

export const CLAUDE_UTILITY_OPTIONS = known<ClaudeUtilityCallOptions>(
  "utility() / utilityStreamed() options",
  {
    ...CALL_KEYS,
    schema: true,
  },
);

/** What a conversation shares across its turns: the call options but the per-turn ones and those it owns. */
const {
  prompt: _prompt,
  signal: _signal,
  images: _images,
  keepThread: _keepThread,
  resume: _resume,
  ...SHARED_KEYS
} = CALL_KEYS;

export const CLAUDE_CONVERSATION_OPTIONS = known<ClaudeConversationOptions>("conversation() options", {
  ...SHARED_KEYS,
  threadId: true,
});

export const CLAUDE_TIMEOUT_OPTIONS = known<ClaudeTimeouts>("timeouts", { turnMs: true });

const NEVER_ASKS =
  "Rennet never asks a person by default (permission mode bypassPermissions); pass `approvals: { onRequest }` " +
  "to decide permission prompts yourself (docs/approvals.md)";

/** What to use instead of an option of Anthropic's Claude Agent SDK (`query({ options })`), by its name. */
const AGENT_SDK_HINTS: ReadonlyMap<string, string> = new Map([
  ["pathToClaudeCodeExecutable", 'pass the path to createClaudeCode({ claude: "/path/to/claude" })'],
  ["abortController", "pass its `signal`"],
  ["permissionMode", NEVER_ASKS],
  ["canUseTool", NEVER_ASKS],
  ["allowDangerouslySkipPermissions", NEVER_ASKS],
  ["permissionPromptToolName", NEVER_ASKS],
  ["mcpServers", "use `mcp: { servers: [{ name, url }] }` (loopback servers only)"],
  ["strictMcpConfig", 'Rennet\'s MCP policy is always strict unless `mcp` is "inherit": remove it'],
  ["settingSources", "use `trustProject` (false: user settings only; true: the repository's too)"],
  ["persistSession", "use `keepThread`"],
  ["continue", "use `resume` with the threadId of a turn run with `keepThread`"],
  ["sessionId", "not an option of Rennet: Claude Code names the session; read it as `threadId`"],
  ["forkSession", "not an option of Rennet: remove it"],
  ["outputFormat", "use claude.utility({ prompt, schema }) for structured output"],
  ["jsonSchema", "use claude.utility({ prompt, schema }) for structured output"],
  ["maxThinkingTokens", "use `effort`"],
  ["thinking", "use `effort`"],
  ["includePartialMessages", "Rennet always streams partial messages: remove it"],
  ["stderr", "a failed turn's `failure.stderrTail` holds claude's stderr: remove it"],
  ["executable", "Rennet starts the native claude itself: remove it"],
  ["executableArgs", "Rennet starts the native claude itself: remove it"],
  ["extraArgs", "Rennet passes no extra arguments: remove it"],
  ["systemPrompt", "not an option of Rennet: Claude Code uses its own system prompt"],
  ["appendSystemPrompt", "not an option of Rennet: put instructions in the prompt"],
  ["allowedTools", "not an option of Rennet: Claude Code offers its own tools"],
  ["disallowedTools", "not an option of Rennet: Claude Code offers its own tools"],
  ["additionalDirectories", "not an option of Rennet: the turn runs in `cwd`"],
  ["maxTurns", "not an option of Rennet: use `maxBudgetUsd` or `timeouts.turnMs`"],
  ["hooks", "not an option of Rennet: it registers no hooks"],
  ["agents", "not an option of Rennet: remove it"],
  ["plugins", "not an option of Rennet: remove it"],
  ["fallbackModel", "not an option of Rennet: use `model`"],
]);

const ALIASES: ReadonlyMap<string, string> = new Map([
  ["claudePath", "claude"],
  ["claudeBin", "claude"],
  ["claudeBinary", "claude"],
  ["codex", "claude"],
  ["workingDirectory", "cwd"],
  ...SHARED_ALIASES,
  ["threadId", "resume"],
  ["maxBudget", "maxBudgetUsd"],
  ["outputSchema", "schema"],
  ["reasoningEffort", "effort"],
  ["modelReasoningEffort", "effort"],
]);

const OTHER_PLACES: ReadonlyMap<string, string> = new Map([
  ...entryPointPlaces("createClaudeCode", CLAUDE_CLIENT_OPTIONS.keys, CLAUDE_CALL_OPTIONS.keys),
  ["schema", "`schema` is an option of claude.utility() / utilityStreamed()"],
  ...conversationPlaces("claude"),
  [
    "keepThread",
    "`keepThread` is an option of each call (run, runStreamed, …); a conversation keeps its thread itself",
  ],
  [
    "ephemeral",
    "Claude Code turns keep no transcript unless `keepThread: true` (Codex's `ephemeral: false`)",
  ],
]);

/** What the Claude Code client says about keys it does not take. */
export const CLAUDE_OPTION_HINTS: OptionHints = {
  sdkName: "Anthropic's Claude Agent SDK",
  sdk: AGENT_SDK_HINTS,
  aliases: ALIASES,
  otherPlaces: OTHER_PLACES,
};
