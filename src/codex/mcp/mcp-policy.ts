import { McpPolicyError } from "./mcp-policy-error.js";

/** One MCP server the caller asks Codex to use: a streamable-HTTP endpoint on this machine. */
export interface McpServerSpec {
  /** The key under `mcp_servers`; any non-empty string (it is quoted as needed). */
  name: string;
  /** `http://` or `https://` URL whose host is 127.0.0.0/8, `localhost` or `[::1]`. */
  url: string;
  /** Name of the environment variable holding a bearer token (`bearer_token_env_var`). */
  bearerTokenEnvVar?: string;
  /** Static HTTP headers sent with every request (`http_headers`). */
  httpHeaders?: Record<string, string>;
  /** `startup_timeout_sec`: seconds, > 0 and at most {@link MAX_MCP_TIMEOUT_SEC}. */
  startupTimeoutSec?: number;
  /** `tool_timeout_sec`: seconds, > 0 and at most {@link MAX_MCP_TIMEOUT_SEC}. */
  toolTimeoutSec?: number;
}

/**
 * Which MCP servers the Codex child may use.
 * - `"inherit"`: no discovery and no override; the child keeps the user's servers and plugins.
 * - `{servers}`: exactly these servers (none for `[]`); every other configured server is disabled and plugins
 *   are turned off.
 */
export type McpPolicy = "inherit" | { servers: McpServerSpec[] };

/** An explicit policy: the only kind that changes the launch. */
export type ExplicitMcpPolicy = Exclude<McpPolicy, "inherit">;

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
const IPV4_LOOPBACK =
  /^127\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function hasCodeUnit(text: string, test: (code: number) => boolean): boolean {
  for (let i = 0; i < text.length; i++) if (test(text.charCodeAt(i))) return true;
  return false;
}

/** Result of {@link checkLoopbackUrl}. */
export type LoopbackUrlCheck =
  { ok: true } | { ok: false; code: "MCP_URL_INVALID" | "MCP_URL_NOT_LOOPBACK"; reason: string };

/**
 * Whether `url` is an `http(s)://` URL that can only reach this machine. Pure. The host is read from the raw
 * text and must also be what a WHATWG parser (Node's and codex's `url` crate alike) sees, so that no spelling
 * can mean one host here and another there: accepted hosts are a dotted-decimal `127.a.b.c`, `localhost` (any
 * case) and `[::1]`; userinfo, backslashes, whitespace and control characters are refused outright.
 */
export function checkLoopbackUrl(url: string): LoopbackUrlCheck {
  // every code unit from U+0000 to U+0020 (space) and DEL; a WHATWG parser silently drops some of them
  if (hasCodeUnit(url, (c) => c <= 0x20 || c === 0x7f || c === 0x5c)) {
    return {
      ok: false,
      code: "MCP_URL_INVALID",
      reason: "it contains whitespace, a control character or a backslash",
    };
  }
  const match = /^(https?):\/\/([^/?#]*)(?:[/?#].*)?$/i.exec(url);
  if (!match)
    return { ok: false, code: "MCP_URL_INVALID", reason: "it is not an absolute http:// or https:// URL" };
  const authority = match[2] ?? "";
  if (authority.includes("@")) {
    return {
      ok: false,
      code: "MCP_URL_NOT_LOOPBACK",
      reason: "it carries userinfo (user@host); put credentials in a header or bearerTokenEnvVar",
    };
  }
  const hostPort = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(authority);
  if (!hostPort)
    return { ok: false, code: "MCP_URL_INVALID", reason: `its authority "${authority}" is not host[:port]` };
  const rawHost = (hostPort[1] ?? "").toLowerCase();
  const port = hostPort[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) {
    return { ok: false, code: "MCP_URL_INVALID", reason: `its port ${port} is outside 1-65535` };
  }
  if (rawHost !== "localhost" && rawHost !== "[::1]" && !IPV4_LOOPBACK.test(rawHost)) {
    return {
      ok: false,
      code: "MCP_URL_NOT_LOOPBACK",
      reason: `its host "${rawHost}" is not 127.x.y.z (dotted decimal), localhost or [::1]`,
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, code: "MCP_URL_INVALID", reason: "it does not parse as a URL" };
  }
  if (parsed.hostname !== rawHost || parsed.username !== "" || parsed.password !== "") {
    return {
      ok: false,
      code: "MCP_URL_NOT_LOOPBACK",
      reason: `a URL parser reads its host as "${parsed.hostname}"`,
    };
  }
  return { ok: true };
}

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
export function validateMcpServerSpec(spec: unknown): McpServerSpec {
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
      invalid(
        "MCP_SPEC_INVALID",
        `MCP server "${name}": unknown field "${key}" (allowed: ${[...SPEC_KEYS].join(", ")})`,
      );
    }
  }
  if (typeof url !== "string") invalid("MCP_SPEC_INVALID", `MCP server "${name}": url must be a string`);
  const check = checkLoopbackUrl(url);
  if (!check.ok) {
    invalid(
      check.code,
      `MCP server "${name}": ${JSON.stringify(url)} is refused because ${check.reason}. ` +
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
  return spec as McpServerSpec;
}

/**
 * Checks a policy before anything is spawned: loopback-only URLs, non-empty unique names, well-formed fields.
 * Returns the same policy; throws {@link McpPolicyError}.
 */
export function validateMcpPolicy(policy: McpPolicy): McpPolicy {
  if (policy === "inherit") return policy;
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
  const seen = new Set<string>();
  for (const server of policy.servers) {
    const spec = validateMcpServerSpec(server);
    if (seen.has(spec.name)) {
      invalid(
        "MCP_NAME_DUPLICATE",
        `MCP server "${spec.name}" is requested twice; give each server its own name`,
      );
    }
    seen.add(spec.name);
  }
  return policy;
}

/** Parses one `--mcp-server NAME=URL` value (split at the first `=`) and validates it. Pure. */
export function parseMcpServerFlag(value: string): McpServerSpec {
  const at = value.indexOf("=");
  if (at < 0) {
    invalid(
      "MCP_FLAG_INVALID",
      `--mcp-server expects NAME=URL (e.g. tools=http://127.0.0.1:8123/mcp), got ${JSON.stringify(value)}`,
    );
  }
  return validateMcpServerSpec({ name: value.slice(0, at), url: value.slice(at + 1) });
}

/**
 * The policy the CLI flags ask for: neither flag → `"inherit"`, `--mcp-none` → `{servers: []}`, one or more
 * `--mcp-server` → exactly those. Both kinds together are refused. Pure.
 */
export function mcpPolicyFromFlags(flags: { mcpServer?: readonly string[]; mcpNone?: boolean }): McpPolicy {
  const servers = flags.mcpServer ?? [];
  if (flags.mcpNone && servers.length > 0) {
    invalid("MCP_FLAG_INVALID", "--mcp-none cannot be combined with --mcp-server; use one or the other");
  }
  if (flags.mcpNone) return { servers: [] };
  if (servers.length === 0) return "inherit";
  return validateMcpPolicy({ servers: servers.map(parseMcpServerFlag) });
}
