import { didYouMean } from "../did-you-mean.js";
import { checkLoopbackUrl, hasCodeUnit, withoutUserinfo } from "./loopback-url.js";
import { McpPolicyError } from "./mcp-policy-error.js";

/**
 * One MCP server the caller asks the agent to use: a streamable-HTTP endpoint on this machine. The field names
 * follow Codex's `mcp_servers` table; docs/claude-code.md says what Claude Code receives of each.
 */
export interface McpServerSpec {
  /** The key under `mcp_servers`; any non-empty string (it is quoted as needed). */
  name: string;
  /** `http://` or `https://` URL whose host is 127.0.0.0/8, `localhost` or `[::1]`. */
  url: string;
  /**
   * Name of the environment variable holding a bearer token (Codex: `bearer_token_env_var`; Claude Code: an
   * `Authorization` header Claude expands).
   */
  bearerTokenEnvVar?: string | undefined;
  /** Static HTTP headers sent with every request (`http_headers`). */
  httpHeaders?: Record<string, string> | undefined;
  /** `startup_timeout_sec`: seconds, > 0, at most {@link MAX_MCP_TIMEOUT_SEC}; not sent to Claude Code. */
  startupTimeoutSec?: number | undefined;
  /** `tool_timeout_sec`: seconds, > 0, at most {@link MAX_MCP_TIMEOUT_SEC}; not sent to Claude Code. */
  toolTimeoutSec?: number | undefined;
}

/**
 * Which MCP servers the agent's child may use.
 * - `"inherit"`: no discovery and no override; the child keeps the user's servers and plugins.
 * - `{servers}`: exactly these servers (none for `[]`); every other configured server is disabled and plugins
 *   are turned off.
 */
export type McpPolicy = "inherit" | { readonly servers: readonly McpServerSpec[] };

declare const parsed: unique symbol;

/**
 * A policy {@link parseMcpPolicy} checked: a frozen copy (its servers and their headers frozen too), so what
 * was checked is what runs. Only the parser makes one; every layer below the edge (library call, CLI flags)
 * takes it as it is.
 */
export type McpPolicyValue = ("inherit" | { readonly servers: readonly Readonly<McpServerSpec>[] }) & {
  readonly [parsed]: true;
};

/** A checked explicit policy: the only kind that changes the launch. */
export type ExplicitMcpPolicyValue = Exclude<McpPolicyValue, "inherit">;

/** Every policy object the parser made (`"inherit"` needs no record). */
const parsedPolicies = new WeakSet<object>();

/** Longest accepted timeout: one day. Codex turns these into durations; absurd values only risk overflow there. */
export const MAX_MCP_TIMEOUT_SEC = 86_400;

const SPEC_KEYS = new Set([
  "name",
  "url",
  "bearerTokenEnvVar",
  "httpHeaders",
  "startupTimeoutSec",
  "toolTimeoutSec",
]);
/** RFC 9110 `token`: the characters an HTTP header name may hold. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function invalid(code: McpPolicyError["code"], message: string): never {
  throw new McpPolicyError(code, message);
}

function checkTimeout(name: string, field: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > MAX_MCP_TIMEOUT_SEC) {
    invalid(
      "MCP_SPEC_INVALID",
      `MCP server "${name}": ${field} must be a number of seconds above 0 and at most ${MAX_MCP_TIMEOUT_SEC}, got ${JSON.stringify(value)}`,
    );
  }
}

/** Checks one requested server; throws {@link McpPolicyError} naming the field and the fix. */
function validateMcpServerSpec(spec: unknown): McpServerSpec {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    invalid(
      "MCP_SPEC_INVALID",
      `an MCP server must be an object {name, url, …}, got ${JSON.stringify(spec)}`,
    );
  }
  const record = spec as Record<string, unknown>;
  const { name, url } = record;
  if (typeof name !== "string")
    invalid("MCP_SPEC_INVALID", `an MCP server needs a string name, got ${JSON.stringify(name)}`);
  if (name === "")
    invalid("MCP_NAME_EMPTY", "an MCP server has an empty name; give every server a non-empty name");
  for (const key of Object.keys(record)) {
    if (!SPEC_KEYS.has(key)) {
      const meant = didYouMean(key, [...SPEC_KEYS]);
      invalid(
        "MCP_SPEC_INVALID",
        `MCP server "${name}": unknown field "${key}"${meant === null ? "" : `: did you mean ${meant}?`} ` +
          `(allowed: ${[...SPEC_KEYS].join(", ")})`,
      );
    }
  }
  if (typeof url !== "string") invalid("MCP_SPEC_INVALID", `MCP server "${name}": url must be a string`);
  const check = checkLoopbackUrl(url);
  if (!check.ok) {
    invalid(
      check.code,
      `MCP server "${name}": ${JSON.stringify(withoutUserinfo(url))} is refused because ${check.reason}. ` +
        "Only http(s) servers on this machine (127.0.0.0/8, localhost, [::1]) can be requested.",
    );
  }
  const { bearerTokenEnvVar, httpHeaders } = record;
  if (
    bearerTokenEnvVar !== undefined &&
    (typeof bearerTokenEnvVar !== "string" ||
      bearerTokenEnvVar === "" ||
      hasCodeUnit(bearerTokenEnvVar, (c) => c === 0x3d || c === 0))
  ) {
    invalid(
      "MCP_SPEC_INVALID",
      `MCP server "${name}": bearerTokenEnvVar must be a non-empty variable name without "=" or NUL`,
    );
  }
  if (httpHeaders !== undefined) {
    if (typeof httpHeaders !== "object" || httpHeaders === null || Array.isArray(httpHeaders)) {
      invalid(
        "MCP_SPEC_INVALID",
        `MCP server "${name}": httpHeaders must be an object of header name to string value`,
      );
    }
    for (const [header, value] of Object.entries(httpHeaders)) {
      if (!HEADER_NAME.test(header)) {
        invalid(
          "MCP_SPEC_INVALID",
          `MCP server "${name}": ${JSON.stringify(header)} is not a valid HTTP header name`,
        );
      }
      if (typeof value !== "string" || hasCodeUnit(value, (c) => c === 0x0d || c === 0x0a || c === 0)) {
        invalid(
          "MCP_SPEC_INVALID",
          `MCP server "${name}": header ${header} needs a string value without CR, LF or NUL`,
        );
      }
    }
  }
  checkTimeout(name, "startupTimeoutSec", record.startupTimeoutSec);
  checkTimeout(name, "toolTimeoutSec", record.toolTimeoutSec);
  return frozenSpec(spec as McpServerSpec);
}

/** A frozen copy of a checked server: later changes to the caller's object do not reach the launch. */
function frozenSpec(spec: McpServerSpec): Readonly<McpServerSpec> {
  const { httpHeaders, ...rest } = spec;
  return Object.freeze({
    ...rest,
    ...(httpHeaders ? { httpHeaders: Object.freeze({ ...httpHeaders }) } : {}),
  });
}

/**
 * Checks a policy before anything is spawned (loopback-only URLs, non-empty unique names, well-formed fields)
 * and returns it as an {@link McpPolicyValue}; a value it made already is returned as it is. Throws
 * {@link McpPolicyError}.
 */
export function parseMcpPolicy(policy: unknown): McpPolicyValue {
  if (policy === "inherit") return policy as McpPolicyValue;
  if (typeof policy === "object" && policy !== null && parsedPolicies.has(policy))
    return policy as McpPolicyValue;
  if (
    typeof policy !== "object" ||
    policy === null ||
    !Array.isArray((policy as { servers?: unknown }).servers)
  ) {
    invalid(
      "MCP_SPEC_INVALID",
      `an MCP policy is "inherit" or {servers: [...]}, got ${JSON.stringify(policy)}`,
    );
  }
  for (const key of Object.keys(policy as object))
    if (key !== "servers")
      invalid("MCP_SPEC_INVALID", `an MCP policy has one field, servers: unknown field "${key}"`);
  const seen = new Set<string>();
  const servers = (policy as { servers: unknown[] }).servers.map((server) => {
    const spec = validateMcpServerSpec(server);
    if (seen.has(spec.name)) {
      invalid(
        "MCP_NAME_DUPLICATE",
        `MCP server "${spec.name}" is requested twice; give each server its own name`,
      );
    }
    seen.add(spec.name);
    return spec;
  });
  const value = Object.freeze({ servers: Object.freeze(servers) });
  parsedPolicies.add(value);
  return value as McpPolicyValue;
}

/** {@link parseMcpPolicy} of a policy that names its servers (`"inherit"` is refused). */
export function parseExplicitMcpPolicy(policy: {
  readonly servers: readonly McpServerSpec[];
}): ExplicitMcpPolicyValue {
  const value = parseMcpPolicy(policy);
  if (value === "inherit")
    invalid("MCP_SPEC_INVALID", 'an explicit MCP policy is {servers: [...]}, not "inherit"');
  return value;
}

/** Parses one `--mcp-server NAME=URL` value (split at the first `=`) and validates it. Pure. */
export function parseMcpServerFlag(value: string): Readonly<McpServerSpec> {
  const at = value.indexOf("=");
  if (at < 0) {
    invalid(
      "MCP_FLAG_INVALID",
      `--mcp-server expects NAME=URL (e.g. tools=http://127.0.0.1:8123/mcp), got ${JSON.stringify(withoutUserinfo(value))}`,
    );
  }
  return validateMcpServerSpec({ name: value.slice(0, at), url: value.slice(at + 1) });
}

/**
 * The policy the CLI flags ask for: neither flag → `"inherit"`, `--mcp-none` → `{servers: []}`, one or more
 * `--mcp-server` → exactly those. Both kinds together are refused. Pure.
 */
export function mcpPolicyFromFlags(flags: {
  mcpServer?: readonly string[];
  mcpNone?: boolean;
}): McpPolicyValue {
  const servers = flags.mcpServer ?? [];
  if (flags.mcpNone && servers.length > 0) {
    invalid("MCP_FLAG_INVALID", "--mcp-none cannot be combined with --mcp-server; use one or the other");
  }
  if (flags.mcpNone) return parseMcpPolicy({ servers: [] });
  if (servers.length === 0) return parseMcpPolicy("inherit");
  return parseMcpPolicy({ servers: servers.map(parseMcpServerFlag) });
}
