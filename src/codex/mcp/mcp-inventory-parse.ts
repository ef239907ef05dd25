import { McpPolicyError } from "../../mcp/mcp-policy-error.js";

/** The transport of a configured server, reduced to the one field a disabling placeholder must repeat. */
export type McpInventoryTransport =
  { type: "stdio"; command: string } | { type: "streamable_http"; url: string };

/** One server as `codex mcp list --json` reports it (after the merge of every config layer it read). */
export interface McpInventoryEntry {
  name: string;
  enabled: boolean;
  disabledReason: string | null;
  transport: McpInventoryTransport;
}

function shape(message: string): never {
  throw new McpPolicyError(
    "MCP_INVENTORY_SHAPE",
    `codex mcp list --json printed an unexpected inventory: ${message}. ` +
      'Check that the Codex CLI is a version Rennet supports (0.171.0 is verified), or run with the MCP policy "inherit".',
  );
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * Parses the stdout of `codex mcp list --json`. Pure and strict about what a placeholder needs: a JSON array
 * of objects, each with a string `name` (unique), a boolean `enabled`, and a `transport` that is either
 * `{type:"stdio", command:string}` or `{type:"streamable_http", url:string}`. Other fields are ignored; any
 * other shape throws {@link McpPolicyError} `MCP_INVENTORY_SHAPE`.
 */
export function parseMcpInventory(stdout: string): McpInventoryEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch (error) {
    return shape(`not JSON (${(error as Error).message}); output began ${describe(stdout.slice(0, 80))}`);
  }
  if (!Array.isArray(data)) shape(`expected an array, got ${describe(data)}`);
  const names = new Set<string>();
  return data.map((raw: unknown, index): McpInventoryEntry => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw))
      shape(`entry ${index} is not an object: ${describe(raw)}`);
    const entry = raw as Record<string, unknown>;
    const { name, enabled, transport } = entry;
    if (typeof name !== "string") shape(`entry ${index} has no string name: ${describe(raw)}`);
    if (names.has(name)) shape(`server "${name}" is listed twice`);
    names.add(name);
    if (typeof enabled !== "boolean") shape(`server "${name}" has no boolean "enabled"`);
    const disabledReason = entry.disabled_reason;
    if (disabledReason !== undefined && disabledReason !== null && typeof disabledReason !== "string") {
      shape(`server "${name}" has a non-string disabled_reason`);
    }
    if (typeof transport !== "object" || transport === null || Array.isArray(transport)) {
      shape(`server "${name}" has no transport object`);
    }
    const t = transport as Record<string, unknown>;
    let parsed: McpInventoryTransport;
    if (t.type === "stdio") {
      if (typeof t.command !== "string") shape(`stdio server "${name}" has no string command`);
      parsed = { type: "stdio", command: t.command };
    } else if (t.type === "streamable_http") {
      if (typeof t.url !== "string") shape(`streamable_http server "${name}" has no string url`);
      parsed = { type: "streamable_http", url: t.url };
    } else {
      shape(
        `server "${name}" has transport type ${describe(t.type)} (expected "stdio" or "streamable_http")`,
      );
    }
    return {
      name,
      enabled,
      disabledReason: typeof disabledReason === "string" ? disabledReason : null,
      transport: parsed,
    };
  });
}
