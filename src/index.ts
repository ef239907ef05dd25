/** `rennet-adapters`: drive the user's own Codex through `codex app-server` as one typed harness event stream. */
export type * from "./harness/events.js";
export type { HarnessSession } from "./harness/session.js";
export { isRennetError, RennetError } from "./errors.js";
export type { RennetErrorCode } from "./error-codes.js";
export { SteerError, TurnCancelledError, TurnFailedError } from "./harness/errors.js";
export {
  CodexClient,
  CodexSessionClient,
  createCodex,
  type CodexCallOptions,
  type CodexClientOptions,
  type ResolveCodexOptions,
  type TurnResult,
} from "./codex/client/codex-client.js";
export {
  ConversationBusyError,
  type Conversation,
  type ConversationRunOptions,
} from "./call/conversation.js";
export type { ConversationOptions } from "./codex/client/call-options.js";
export {
  InvalidTurnInputError,
  REASONING_SUMMARIES,
  type ReasoningSummary,
} from "./codex/client/turn-inputs.js";
export { InvalidOptionsError } from "./codex/client/option-check.js";
export { NotCodexError } from "./codex/not-codex-error.js";
export { LaunchCwdError } from "./discovery/launch-cwd-error.js";
export {
  codexLaunchSpec,
  explicitCodex,
  type CodexLaunch,
  type CodexLaunchOptions,
  type CodexSource,
  type ResolvedCodex,
} from "./codex/launch/codex-launch.js";
export type { TurnTimeouts } from "./codex/turn/turn-timeouts.js";
export { McpPolicyError } from "./mcp/mcp-policy-error.js";
export type { McpPolicy, McpServerSpec } from "./mcp/mcp-policy.js";
export type { McpIsolationReport } from "./codex/mcp/mcp-isolation-report.js";
export { formatIsolationReport } from "./codex/mcp/format-isolation-report.js";
export type { McpIsolationCheckOptions } from "./codex/mcp/mcp-isolation-check.js";
export { checkProjectTrust, discoverCodex, runMcpIsolationCheck } from "./codex/client/lazy-entries.js";
export type {
  ProjectLayerEffect,
  ProjectTrustCheckOptions,
  ProjectTrustReport,
} from "./codex/trust/project-trust-check.js";
export { UntrustedProjectConfigError } from "./codex/trust/untrusted-project-guard.js";
export { formatDoctorReport } from "./discovery/format-doctor-report.js";
export { CodexUnavailableError } from "./codex/codex-unavailable-error.js";
export type { CodexDiscoveryReport as DiscoveryReport } from "./codex/discovery/discover.js";
export type { DiscoverOptions } from "./codex/discovery/discover.js";
export {
  codexCapabilities,
  MINIMUM_SUPPORTED_CODEX,
  type CodexCapabilities,
} from "./codex/versions/capabilities.js";
export { assertSupportedVersion, UnsupportedCodexVersionError } from "./codex/versions/supported-version.js";
export { UnsupportedCodexFeatureError } from "./codex/versions/unsupported-feature.js";
export { normalizeSchemaForStrictMode } from "./codex/schema/strict-schema.js";
export { UnsupportedSchemaError, type UnsupportedSchemaIssue } from "./schema/unsupported-schema-error.js";
export { InvalidSchemaError } from "./schema/schema-validator.js";
export { defineTool, InvalidToolError } from "./tools/define-tool.js";
export type { AppTool, AppToolContext, AppToolDefinition, AppToolReturn } from "./tools/define-tool.js";
export type { SchemaIssue } from "./schema/schema-errors.js";
export type { JsonSchema, JsonSchemaObject } from "./schema/json-schema.js";
export type { InferSchema } from "./schema/infer-schema.js";
export {
  InvalidEffortError,
  REASONING_EFFORTS,
  type ReasoningEffort,
} from "./codex/client/reasoning-effort.js";
export type { UtilityCallOptions, UtilityResult } from "./codex/client/utility-executor.js";
export type {
  LaunchSpec,
  Launcher,
  StdioChild,
  StdioChild as AppServerProcess,
  ProcessExit,
} from "./process/stdio-child.js";
export {
  ClaudeCodeClient,
  ClaudeCodeSessionClient,
  createClaudeCode,
} from "./claude/client/claude-client.js";
export type {
  ClaudeCodeCallOptions,
  ClaudeCodeClientOptions,
  ClaudeConversationOptions,
  ClaudeEffort,
  ClaudeTimeouts,
  ClaudeUtilityCallOptions,
} from "./claude/client/claude-call-options.js";
export { ClaudeUnavailableError } from "./claude/claude-unavailable-error.js";
export { ClaudeBypassRefusedError, ClaudeUnsupportedVersionError } from "./claude/errors.js";
export {
  claudeCapabilities,
  MINIMUM_SUPPORTED_CLAUDE,
  type ClaudeCapabilities,
} from "./claude/capabilities.js";
