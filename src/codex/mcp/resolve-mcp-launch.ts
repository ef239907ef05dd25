import { runCommand } from "../../process/run-command.js";
import { codexCapabilities } from "../versions/capabilities.js";
import { codexLaunchSpec } from "../launch/codex-launch.js";
import { assertSupportedVersion } from "../versions/supported-version.js";
import { parseCodexVersion } from "../versions/version-text.js";
import { buildMcpLaunchArgs, buildMcpThreadConfig } from "./mcp-launch-args.js";
import { McpPolicyError } from "../../mcp/mcp-policy-error.js";
import { listConfiguredMcpServers, type McpInventoryOptions } from "./mcp-inventory.js";
import type { McpPolicyValue } from "../../mcp/mcp-policy.js";

/** Where and how the turn will run; the inventory is read with exactly these. */
export interface ResolveMcpLaunchArgsOptions extends McpInventoryOptions {
  /** The codex version when known (e.g. `ResolvedCodex.version`); otherwise one `codex --version` reads it. */
  version?: string | null;
}

/**
 * The extra `codex app-server` arguments that enforce `policy`, to append after `app-server`.
 * - `"inherit"` → `[]`: nothing is spawned and nothing is overridden.
 * - `{servers}` (checked by `parseMcpPolicy`) → runs `codex mcp list --json` with the same
 *   binary, cwd and environment as the turn, and returns `["-c", "features.plugins=false", "-c",
 *   "mcp_servers=<table>"]` with the requested servers plus a disabling placeholder for every configured one.
 * Launch arguments alone do not reach a thread's MCP servers on codex before 0.80
 * (`launchOverridesReachThreads`): there it rejects with `MCP_POLICY_UNENFORCEABLE` rather than let configured
 * servers start (use {@link resolveMcpLaunch} and pass its `threadConfig` to `thread/start`), and below 0.72
 * with `CODEX_UNSUPPORTED_VERSION`. The version is `options.version`, else one `codex --version`. Rejects with
 * {@link McpPolicyError} (see its codes) or, on abort, with `signal.reason`; always before any app-server
 * starts.
 */
export async function resolveMcpLaunchArgs(
  policy: McpPolicyValue,
  options: ResolveMcpLaunchArgsOptions,
): Promise<string[]> {
  if (policy === "inherit") return [];
  const version = await codexVersionOf(options);
  assertSupportedVersion(version);
  if (!codexCapabilities(version).launchOverridesReachThreads) {
    throw new McpPolicyError(
      "MCP_POLICY_UNENFORCEABLE",
      `codex ${version ?? "(unknown version)"} does not apply launch overrides to a thread's MCP servers, so ` +
        "this MCP policy cannot be enforced with launch arguments alone; upgrade Codex " +
        '(npm i -g @openai/codex@latest) or run with the MCP policy "inherit"',
    );
  }
  const inventory = await listConfiguredMcpServers(options);
  return buildMcpLaunchArgs(policy, inventory);
}

/** The codex version: the one given, else `codex --version` (null when it prints none). */
async function codexVersionOf(options: ResolveMcpLaunchArgsOptions): Promise<string | null> {
  if (options.version) return options.version;
  const spec = codexLaunchSpec(options.codex, ["--version"], {
    cwd: options.cwd,
    baseEnv: options.env ?? process.env,
  });
  const result = await runCommand(spec, {
    timeoutMs: options.timeoutMs ?? 15_000,
    ...(options.signal ? { signal: options.signal } : {}),
    graceMs: 1000,
  });
  if (result.type === "aborted") throw options.signal?.reason;
  if (result.type !== "exited" || result.code !== 0) return null;
  return parseCodexVersion(result.stdout) ?? parseCodexVersion(result.stderr);
}

/** How a policy is enforced: launch arguments, and the same policy as a `thread/start` config fragment. */
export interface McpLaunch {
  /** Appended after `app-server` (as {@link resolveMcpLaunchArgs} returns them). */
  appServerArgs: string[];
  /**
   * `{ mcp_servers: {…} }` to merge into `thread/start`'s `config` where codex does not apply launch overrides
   * to a thread's MCP servers (`launchOverridesReachThreads` false: 0.72); null for `"inherit"`.
   */
  threadConfig: Record<string, unknown> | null;
}

/** {@link resolveMcpLaunchArgs}, plus the thread-config form of the same policy from the same inventory read. */
export async function resolveMcpLaunch(
  policy: McpPolicyValue,
  options: ResolveMcpLaunchArgsOptions,
): Promise<McpLaunch> {
  if (policy === "inherit") return { appServerArgs: [], threadConfig: null };
  const inventory = await listConfiguredMcpServers(options);
  return {
    appServerArgs: buildMcpLaunchArgs(policy, inventory),
    threadConfig: buildMcpThreadConfig(policy, inventory),
  };
}
