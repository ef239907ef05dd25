import { runCommand } from "../../process/run-command.js";
import { describeLaunch, launchExecutable } from "../../discovery/executable-launch.js";
import { codexLaunchSpec, protocolCwd, type CodexLaunch } from "../launch/codex-launch.js";
import { parseMcpInventory, type McpInventoryEntry } from "./mcp-inventory-parse.js";
import { renderTomlInlineChecked } from "./mcp-overrides-toml.js";
import { PLUGINS_OFF_ARGS } from "./mcp-launch-args.js";
import { McpPolicyError } from "../../mcp/mcp-policy-error.js";
import { trustedProjectsTable } from "./project-trust-overrides.js";
import { trustDirectories } from "../trust/trust-directories.js";

export interface McpInventoryOptions {
  /** Launched through `codexLaunchSpec`, exactly as the turn's app-server is (`.cmd`, node launcher, WSL). */
  codex: CodexLaunch;
  /** The turn's working directory: project layers (`.codex/config.toml`) are resolved from it. */
  cwd: string;
  /** Environment of the child (default `process.env`), merged under `codex.env`. Must hold the same CODEX_HOME as the turn. */
  env?: NodeJS.ProcessEnv;
  /** Default {@link DEFAULT_MCP_INVENTORY_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Aborting kills the child and rejects with exactly `signal.reason`. */
  signal?: AbortSignal;
  /**
   * `true`: list as if the cwd's project were trusted (every directory up from the cwd), so that a repository's
   * own `.codex/config.toml` servers are listed: for a call that trusts the project (`trustProject: true`) and
   * the isolation control. Otherwise codex's own trust decides, from the user's config, as it decides the turn's
   * (see `trustEntryDirectories`): an untrusted repository's servers are not listed, and codex does not contact
   * them (working out an HTTP server's auth status sends requests to its URL, with its headers).
   */
  trustProject?: boolean;
}

/** `codex mcp list --json` reads config and prints; it starts no server. 15 s leaves room for a cold, loaded machine. */
const DEFAULT_MCP_INVENTORY_TIMEOUT_MS = 15_000;
/** Output beyond this is not an inventory. */
const MAX_STDOUT_BYTES = 16 * 1024 * 1024;
const STDERR_TAIL_BYTES = 2000;
/** SIGTERM → SIGKILL grace for a child that has to be stopped. */
const KILL_GRACE_MS = 1000;

/**
 * `codex mcp list --json -c features.plugins=false`, and `-c projects=<every trust dir trusted>` when
 * `trustDirectories` is not empty. Pure. Plugins are off as they will be at launch; the trust override makes a
 * repository's own `.codex/config.toml` servers appear for a project the call trusts, which the user's config
 * may not. The override lives only in this read-only child: nothing is written to the user's config.
 */
export function buildMcpInventoryArgs(trustDirectories: readonly string[]): string[] {
  const args = ["mcp", "list", "--json", ...PLUGINS_OFF_ARGS];
  if (trustDirectories.length > 0) {
    args.push(
      "-c",
      `projects=${renderTomlInlineChecked(trustedProjectsTable(trustDirectories), "projects")}`,
    );
  }
  return args;
}

/** Every directory from `cwd` (with symlinks resolved, and as given: codex keys trust by the real path) up to the root. */
export function inventoryTrustDirectories(cwd: string): Promise<string[]> {
  return Promise.resolve(trustDirectories(cwd));
}

/**
 * Runs `codex mcp list --json` with the turn's binary, cwd and environment (built like the turn's app-server
 * spawn) and returns the validated inventory. Rejects with {@link McpPolicyError} (`MCP_INVENTORY_FAILED`,
 * `MCP_INVENTORY_TIMEOUT`, `MCP_INVENTORY_SHAPE`), with `LaunchCwdError` when the cwd cannot be expressed in a
 * WSL command's distribution, or on abort with `signal.reason`. The child's tree is gone when the promise settles.
 */
export async function listConfiguredMcpServers(options: McpInventoryOptions): Promise<McpInventoryEntry[]> {
  const { codex, cwd, signal } = options;
  signal?.throwIfAborted();
  // codex keys trust by the path it sees: inside WSL that is the distribution's own path
  const trust = options.trustProject === true ? await inventoryTrustDirectories(protocolCwd(codex, cwd)) : [];
  signal?.throwIfAborted();
  const spec = codexLaunchSpec(codex, buildMcpInventoryArgs(trust), {
    cwd,
    baseEnv: options.env ?? process.env,
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_INVENTORY_TIMEOUT_MS;
  const shown = describeLaunch(codex, ["mcp", "list", "--json"]);
  const result = await runCommand(spec, {
    timeoutMs,
    signal,
    maxStdoutBytes: MAX_STDOUT_BYTES,
    maxStderrBytes: STDERR_TAIL_BYTES,
    graceMs: KILL_GRACE_MS,
  });
  switch (result.type) {
    case "aborted":
      throw signal?.reason;
    case "spawn-error":
      throw new McpPolicyError(
        "MCP_INVENTORY_FAILED",
        `could not start ${launchExecutable(codex)} to list MCP servers (${result.errno ?? result.message}); ` +
          `check the Codex path and that the working directory ${cwd} exists`,
      );
    case "timeout":
      throw new McpPolicyError(
        "MCP_INVENTORY_TIMEOUT",
        `${shown} did not finish within ${timeoutMs} ms; check that this Codex starts (run it by hand) or raise the timeout`,
      );
    case "exited":
      break;
  }
  if (result.code !== 0) {
    const tail = result.stderr.trim();
    throw new McpPolicyError(
      "MCP_INVENTORY_FAILED",
      `${shown} failed (${result.signal ? `signal ${result.signal}` : `exit ${result.code}`})` +
        `${tail ? `: ${tail}` : ""}. Fix the Codex configuration it reports, or run with the MCP policy "inherit".`,
    );
  }
  if (result.stdoutTruncated) {
    throw new McpPolicyError(
      "MCP_INVENTORY_SHAPE",
      `${shown} printed more than ${MAX_STDOUT_BYTES} bytes; that is not an MCP inventory`,
    );
  }
  return parseMcpInventory(result.stdout);
}
