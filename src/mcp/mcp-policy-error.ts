import { RennetError } from "../errors.js";

/** Why an explicit MCP policy could not be turned into app-server arguments. Every one is raised before launch. */
export type McpPolicyErrorCode =
  /** A requested server's URL does not parse as an absolute `http(s)://` URL. */
  | "MCP_URL_INVALID"
  /** A requested server's URL is not on 127.0.0.0/8, `localhost` or `[::1]`, or carries userinfo. */
  | "MCP_URL_NOT_LOOPBACK"
  /** A requested server has an empty name. */
  | "MCP_NAME_EMPTY"
  /** Two requested servers share a name. */
  | "MCP_NAME_DUPLICATE"
  /** A requested name already exists in the user's configuration (a merge would keep that entry's fields). */
  | "MCP_NAME_COLLISION"
  /** A requested server has a malformed field (headers, env var name, timeouts, unknown keys). */
  | "MCP_SPEC_INVALID"
  /** A `--mcp-server` value is not `NAME=URL`, or `--mcp-none` was combined with `--mcp-server`. */
  | "MCP_FLAG_INVALID"
  /** `codex mcp list --json` could not be started or exited non-zero. */
  | "MCP_INVENTORY_FAILED"
  /** `codex mcp list --json` did not finish in time. */
  | "MCP_INVENTORY_TIMEOUT"
  /** `codex mcp list --json` printed something other than the expected array of servers. */
  | "MCP_INVENTORY_SHAPE"
  /** The rendered `mcp_servers` table did not parse back to exactly what was meant. */
  | "MCP_TOML_ROUNDTRIP"
  /** This codex does not apply launch overrides to a thread's MCP servers (0.72), and only launch arguments were asked for. */
  | "MCP_POLICY_UNENFORCEABLE";

/** An explicit MCP policy that cannot be honoured. Raised before any app-server child starts. */
export class McpPolicyError extends RennetError<McpPolicyErrorCode> {
  override readonly name = "McpPolicyError";
  constructor(code: McpPolicyErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
