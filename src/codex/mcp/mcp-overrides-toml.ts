import { parse, stringify } from "smol-toml";
import { McpPolicyError } from "../../mcp/mcp-policy-error.js";

/** A value of a TOML inline table as Rennet writes it: strings, finite numbers, booleans and nested tables. */
export type TomlInlineValue = string | number | boolean | TomlInlineTable;

/**
 * An inline table as an ordered list of entries. Entries (not a plain object) so that any key, `__proto__`
 * included, is carried as data and never touches a prototype.
 */
export interface TomlInlineTable {
  readonly entries: ReadonlyArray<readonly [string, TomlInlineValue]>;
}

/** Builds a {@link TomlInlineTable}. */
export function tomlTable(entries: ReadonlyArray<readonly [string, TomlInlineValue]>): TomlInlineTable {
  return { entries };
}

function expectLine(line: string, prefix: string, suffix: string): string {
  if (!line.startsWith(prefix) || !line.endsWith(suffix) || line.length < prefix.length + suffix.length) {
    throw new McpPolicyError(
      "MCP_TOML_ROUNDTRIP",
      `smol-toml rendered an unexpected line ${JSON.stringify(line)}`,
    );
  }
  return line.slice(prefix.length, line.length - suffix.length);
}

/** A TOML key: bare when it is `[A-Za-z0-9_-]+`, otherwise a basic string with smol-toml's escaping. */
export function tomlKey(key: string): string {
  return expectLine(stringify({ [key]: true }), "", " = true\n");
}

/** A TOML scalar with smol-toml's escaping (JSON escapes plus `\u007f` for DEL; non-ASCII kept as UTF-8). */
function tomlScalar(value: string | number | boolean): string {
  if (typeof value === "number" && !Number.isFinite(value))
    throw new McpPolicyError("MCP_TOML_ROUNDTRIP", `cannot write ${String(value)} as a TOML value here`);
  return expectLine(stringify({ v: value }), "v = ", "\n");
}

/** Renders a one-line TOML value (inline tables stay on one line: every string escapes its newlines). Pure. */
export function renderTomlInline(value: TomlInlineValue): string {
  if (typeof value !== "object") return tomlScalar(value);
  if (value.entries.length === 0) return "{}";
  return `{ ${value.entries.map(([key, item]) => `${tomlKey(key)} = ${renderTomlInline(item)}`).join(", ")} }`;
}

/**
 * The first place where a parsed value differs from the intended one, or null when they are the same. It names
 * the path and the kind of each value, never a value: a header or URL may hold a credential.
 */
export function diffTomlValue(intended: TomlInlineValue, parsed: unknown, path = "$"): string | null {
  if (typeof intended !== "object") {
    if (Object.is(intended, parsed) || (typeof parsed === "number" && intended === parsed)) return null;
    return typeof parsed === typeof intended
      ? `${path}: the ${typeof intended} reads back changed`
      : `${path}: expected a ${typeof intended}, parsed ${parsed === null ? "null" : typeof parsed}`;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return `${path}: expected a table`;
  const record = parsed as Record<string, unknown>;
  const keys = Object.keys(record);
  const seen = new Set<string>();
  for (const [key, item] of intended.entries) {
    const at = `${path}[${JSON.stringify(key)}]`;
    if (seen.has(key)) return `${at}: key written twice`;
    seen.add(key);
    if (!Object.prototype.hasOwnProperty.call(record, key)) return `${at}: missing after parsing`;
    const difference = diffTomlValue(item, record[key], at);
    if (difference) return difference;
  }
  const extra = keys.find((key) => !seen.has(key));
  if (extra !== undefined) return `${path}[${JSON.stringify(extra)}]: unexpected key after parsing`;
  return null;
}

/**
 * Renders `table` as one inline TOML table and parses `x = <rendered>` back with smol-toml; refuses with
 * {@link McpPolicyError} `MCP_TOML_ROUNDTRIP` when rendering fails (e.g. a lone surrogate in a key) or the
 * parsed value differs in any key, type or character (e.g. a lone surrogate in a string, replaced on output).
 */
export function renderTomlInlineChecked(table: TomlInlineTable, what = "mcp_servers"): string {
  let rendered: string;
  let parsed: unknown;
  try {
    rendered = renderTomlInline(table);
    parsed = parse(`x = ${rendered}`).x;
  } catch (error) {
    throw new McpPolicyError(
      "MCP_TOML_ROUNDTRIP",
      `the ${what} override could not be written as TOML (${(error as Error).message}); ` +
        "a server name, URL or header holds text TOML cannot carry (such as a lone UTF-16 surrogate): rename or fix it",
      { cause: error },
    );
  }
  const difference = diffTomlValue(table, parsed);
  if (difference !== null) {
    throw new McpPolicyError(
      "MCP_TOML_ROUNDTRIP",
      `the ${what} override does not read back as written (${difference}); ` +
        "a server name, URL or header holds text TOML cannot carry (such as a lone UTF-16 surrogate): rename or fix it",
    );
  }
  return rendered;
}
