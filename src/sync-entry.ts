/**
 * The package entry on a Node that can `require` ES modules (the `module-sync` export condition: Node ≥ 20.19 /
 * 22.12). It exports exactly what `index.js` exports, the same values, after loading `index.js` and its graph
 * through `require`, which skips the asynchronous loader's per-module cost (`docs/performance.md`). It has no
 * top-level await, as that condition requires: an ES module that imports the package can itself be required.
 * CommonJS callers (the `require` condition) and other runtimes get `index.js` itself.
 */
import { createRequire } from "node:module";
import type * as Entry from "./index.js";

// a literal require here, not `load-module.ts`: a bundler that picks this condition (webpack 5.107+) follows it
const entry = createRequire(import.meta.url)("./index.js") as typeof Entry;

export const {
  assertSupportedVersion,
  checkProjectTrust,
  ClaudeBypassRefusedError,
  claudeCapabilities,
  ClaudeCodeClient,
  ClaudeCodeSessionClient,
  ClaudeUnavailableError,
  ClaudeUnsupportedVersionError,
  codexCapabilities,
  CodexClient,
  codexLaunchSpec,
  CodexSessionClient,
  CodexUnavailableError,
  ConversationBusyError,
  createClaudeCode,
  createCodex,
  defineTool,
  discoverCodex,
  explicitCodex,
  formatDoctorReport,
  formatIsolationReport,
  InvalidEffortError,
  InvalidOptionsError,
  InvalidSchemaError,
  InvalidToolError,
  InvalidTurnInputError,
  isRennetError,
  LaunchCwdError,
  McpPolicyError,
  MINIMUM_SUPPORTED_CLAUDE,
  MINIMUM_SUPPORTED_CODEX,
  normalizeSchemaForStrictMode,
  NotCodexError,
  REASONING_EFFORTS,
  REASONING_SUMMARIES,
  RennetError,
  runMcpIsolationCheck,
  SteerError,
  TurnCancelledError,
  TurnFailedError,
  UnsupportedCodexFeatureError,
  UnsupportedCodexVersionError,
  UnsupportedSchemaError,
  UntrustedProjectConfigError,
} = entry;
