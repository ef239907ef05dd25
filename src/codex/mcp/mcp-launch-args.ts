import type { McpInventoryEntry } from "./mcp-inventory-parse.js";
import {
  renderTomlInlineChecked,
  tomlTable,
  type TomlInlineTable,
  type TomlInlineValue,
} from "./mcp-overrides-toml.js";
import { McpPolicyError } from "../../mcp/mcp-policy-error.js";
import type { ExplicitMcpPolicyValue, McpServerSpec } from "../../mcp/mcp-policy.js";

/**
 * The disabling placeholder for a configured server. `-c mcp_servers=…` is deep-merged into the user's table,
 * so the placeholder only flips `enabled` and repeats the field of the entry's own transport (`command` for
 * stdio, `url` for streamable HTTP): a new key with `enabled` alone fails config load ("invalid transport"),
 * and a field of the other transport makes the merged entry invalid ("url is not supported for stdio").
 * Never a `type` key.
 */
export function placeholderFor(entry: McpInventoryEntry): TomlInlineTable {
  return entry.transport.type === "stdio"
    ? tomlTable([
        ["enabled", false],
        ["command", entry.transport.command],
      ])
    : tomlTable([
        ["enabled", false],
        ["url", entry.transport.url],
      ]);
}

/** The `mcp_servers` entry of a requested server, in codex's own field names. */
function requestedEntryFor(spec: Readonly<McpServerSpec>): TomlInlineTable {
  const entries: Array<[string, TomlInlineValue]> = [
    ["enabled", true],
    ["url", spec.url],
  ];
  if (spec.bearerTokenEnvVar !== undefined) entries.push(["bearer_token_env_var", spec.bearerTokenEnvVar]);
  if (spec.httpHeaders !== undefined)
    entries.push(["http_headers", tomlTable(Object.entries(spec.httpHeaders))]);
  if (spec.startupTimeoutSec !== undefined) entries.push(["startup_timeout_sec", spec.startupTimeoutSec]);
  if (spec.toolTimeoutSec !== undefined) entries.push(["tool_timeout_sec", spec.toolTimeoutSec]);
  return tomlTable(entries);
}

/**
 * The `mcp_servers` override for an explicit policy: each requested server, then a placeholder for every
 * configured server. Pure. Throws {@link McpPolicyError} `MCP_NAME_COLLISION` when a requested name is already
 * configured (the merge would keep that entry's command, headers or env and mix them into the request).
 */
export function buildMcpServersTable(
  policy: ExplicitMcpPolicyValue,
  inventory: readonly McpInventoryEntry[],
): TomlInlineTable {
  const configured = new Map(inventory.map((entry) => [entry.name, entry] as const));
  for (const spec of policy.servers) {
    const existing = configured.get(spec.name);
    if (existing) {
      throw new McpPolicyError(
        "MCP_NAME_COLLISION",
        `the requested MCP server "${spec.name}" already exists in the Codex configuration ` +
          `(a ${existing.transport.type} server${existing.enabled ? "" : ", disabled"}); codex would merge the two entries. ` +
          "Request it under another name.",
      );
    }
  }
  return tomlTable([
    ...policy.servers.map((spec) => [spec.name, requestedEntryFor(spec)] as const),
    ...inventory.map((entry) => [entry.name, placeholderFor(entry)] as const),
  ]);
}

/**
 * The `plugins` feature turned off under an explicit policy: plugin-bundled MCP servers live outside
 * `mcp_servers`. Spelled as a config override because every supported codex accepts it (one without the
 * feature ignores the unknown key), whereas `--disable plugins` exits 1 "Unknown feature flag" before 0.110.
 */
export const PLUGINS_OFF_ARGS = ["-c", "features.plugins=false"] as const;

/**
 * Extra `codex app-server` arguments for an explicit policy: `["-c", "features.plugins=false",
 * "-c", "mcp_servers=<inline table>"]`, the table rendered with smol-toml's escaping and checked by a round trip.
 * Pure. Append them after `app-server`.
 */
export function buildMcpLaunchArgs(
  policy: ExplicitMcpPolicyValue,
  inventory: readonly McpInventoryEntry[],
): string[] {
  const table = buildMcpServersTable(policy, inventory);
  return [...PLUGINS_OFF_ARGS, "-c", `mcp_servers=${renderTomlInlineChecked(table)}`];
}

/** A {@link TomlInlineTable} as a plain JSON object (null prototype, insertion order kept). Pure. */
function tomlTableToJson(table: TomlInlineTable): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of table.entries)
    out[key] = typeof value === "object" ? tomlTableToJson(value) : value;
  return out;
}

/**
 * The same policy as {@link buildMcpLaunchArgs}, as a `thread/start` `config` fragment: `{ mcp_servers: {…} }`.
 * Needed where codex applies launch `-c` overrides to `config/read` but not to a thread's MCP servers (0.72:
 * a placeholder given only at launch still lets the server start; see `launchOverridesReachThreads` in
 * capabilities.ts). Merge it into the thread config next to the trust decision. Pure; throws like
 * {@link buildMcpServersTable}.
 */
export function buildMcpThreadConfig(
  policy: ExplicitMcpPolicyValue,
  inventory: readonly McpInventoryEntry[],
): { mcp_servers: Record<string, unknown> } {
  return { mcp_servers: tomlTableToJson(buildMcpServersTable(policy, inventory)) };
}
