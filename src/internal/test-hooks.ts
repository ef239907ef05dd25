/**
 * What the tests reach that the package does not offer: seams (the random source, the registry directory),
 * tuning constants, and pure helpers tested on their own. Not a package entry (`package.json` exports it
 * nowhere), and no module of `src/` imports it (`test/package/exports-used.test.ts`).
 */
export { randomSource } from "../random-id.js";
export { editDistance } from "../did-you-mean.js";
export { PARSE_EXCERPT_CHARS } from "../jsonl/frame-parser.js";
export { snapshotProcessTree } from "../process/process-tree.js";
export { reapOrphans, STALE_TEMPORARY_MS } from "../process/reap-orphans.js";
export { resolveSpawnRegistryDir, SpawnRegistryError } from "../process/spawn-registry.js";
export { buildTaskkillCommand } from "../process/terminate-tree.js";
export { killHeldTree } from "../process/kill-on-exit.js";
export { STREAMED_BLOCK_DELTAS } from "../session/streamed-text.js";
export { compareVersions } from "../codex/versions/capabilities.js";
export { STATE_DB_RACE_WARNING } from "../codex/versions/state-db-race.js";
export {
  answerServerRequest,
  isMcpToolCallApproval,
  METHOD_NOT_FOUND,
  REQUEST_REFUSED,
} from "../codex/turn/approvals.js";
export { buildMcpInventoryArgs } from "../codex/mcp/mcp-inventory.js";
export { buildMcpServersTable, placeholderFor } from "../codex/mcp/mcp-launch-args.js";
export { sessionFlagsLayerSetsMcpServers } from "../codex/mcp/mcp-observation.js";
export { diffTomlValue, renderTomlInline, tomlKey } from "../codex/mcp/mcp-overrides-toml.js";
export { MAX_MCP_TIMEOUT_SEC, parseMcpServerFlag } from "../mcp/mcp-policy.js";
export { ISOLATION_PROBE_SERVER, judgePolicy } from "../claude/mcp/mcp-isolation.js";
export { resolveMcpLaunchArgs } from "../codex/mcp/resolve-mcp-launch.js";
export { summarizeUnavailable } from "../cli/executable-target.js";
export { optionKey } from "../cli/command-line.js";
export { codexCouldNotStart } from "../cli/commands/codex-mcp-isolation-action.js";
export { exitCodeForOutcome } from "../cli/exit-codes.js";
export { wrapWords } from "../cli/help-format.js";
export { TOOL_OUTPUT_PREVIEW_LINES } from "../cli/human-renderer.js";
export { formatCount, formatUsage } from "../cli/outcome-summary.js";
export { mcpPolicyFromTurnOptions } from "../cli/turn-options.js";
export { parseTimeoutSeconds } from "../cli/turn-option-specs.js";
export { MAX_CONFIG_BYTES } from "../claude/trust/read-repository-config.js";
export { MAX_LISTED_ENTRIES } from "../claude/trust/repository-config.js";
export { looksLikeClaudeVersionOutput } from "../claude/claude-version.js";
export { unifiedDiffOfHunks } from "../claude/file-changes.js";
export { unifiedDiffOfNewFile } from "../unified-diff.js";
export { mcpToolName } from "../claude/tool-kinds.js";
export { mcpArgs, settingSources } from "../claude/turn-argv.js";
