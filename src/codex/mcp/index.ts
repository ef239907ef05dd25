export { McpPolicyError, type McpPolicyErrorCode } from "./mcp-policy-error.js";
export {
  checkLoopbackUrl,
  mcpPolicyFromFlags,
  parseMcpServerFlag,
  validateMcpPolicy,
  validateMcpServerSpec,
  MAX_MCP_TIMEOUT_SEC,
  type ExplicitMcpPolicy,
  type LoopbackUrlCheck,
  type McpPolicy,
  type McpServerSpec,
} from "./mcp-policy.js";
export {
  parseMcpInventory,
  type McpInventoryEntry,
  type McpInventoryTransport,
} from "./mcp-inventory-parse.js";
export {
  buildMcpInventoryArgs,
  listConfiguredMcpServers,
  DEFAULT_MCP_INVENTORY_TIMEOUT_MS,
  type McpInventoryOptions,
} from "./mcp-inventory.js";
export {
  buildMcpLaunchArgs,
  buildMcpServersTable,
  placeholderFor,
  requestedEntryFor,
} from "./mcp-launch-args.js";
export {
  renderTomlInline,
  renderTomlInlineChecked,
  tomlTable,
  type TomlInlineTable,
  type TomlInlineValue,
} from "./mcp-overrides-toml.js";
export {
  resolveMcpLaunch,
  resolveMcpLaunchArgs,
  type McpLaunch,
  type ResolveMcpLaunchArgsOptions,
} from "./resolve-mcp-launch-args.js";
export { runMcpIsolationCheck, type McpIsolationCheckOptions } from "./mcp-isolation-check.js";
export {
  formatIsolationReport,
  judgeServer,
  type McpIsolationPolicyName,
  type McpIsolationPolicyRun,
  type McpIsolationReport,
  type McpServerObservation,
} from "./mcp-isolation-report.js";
