import { buildMcpLaunchArgs, buildMcpThreadConfig } from "./mcp-launch-args.js";
import { listConfiguredMcpServers, type McpInventoryOptions } from "./mcp-inventory.js";
import { validateMcpPolicy, type McpPolicy } from "./mcp-policy.js";

/** Where and how the turn will run; the inventory is read with exactly these. */
export type ResolveMcpLaunchArgsOptions = McpInventoryOptions;

/**
 * The extra `codex app-server` arguments that enforce `policy`, to append after `app-server`.
 * - `"inherit"` → `[]`: nothing is spawned and nothing is overridden.
 * - `{servers}` → validates the policy (loopback URLs, names), runs `codex mcp list --json` with the same
 *   binary, cwd and environment as the turn, and returns `["-c", "features.plugins=false", "-c", "mcp_servers=<table>"]`
 *   with the requested servers plus a disabling placeholder for every configured one.
 * Rejects with {@link McpPolicyError} (see its codes) or, on abort, with `signal.reason`; always before any
 * app-server starts.
 */
export async function resolveMcpLaunchArgs(
  policy: McpPolicy,
  options: ResolveMcpLaunchArgsOptions,
): Promise<string[]> {
  validateMcpPolicy(policy);
  if (policy === "inherit") return [];
  const inventory = await listConfiguredMcpServers(options);
  return buildMcpLaunchArgs(policy, inventory);
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
  policy: McpPolicy,
  options: ResolveMcpLaunchArgsOptions,
): Promise<McpLaunch> {
  validateMcpPolicy(policy);
  if (policy === "inherit") return { appServerArgs: [], threadConfig: null };
  const inventory = await listConfiguredMcpServers(options);
  return {
    appServerArgs: buildMcpLaunchArgs(policy, inventory),
    threadConfig: buildMcpThreadConfig(policy, inventory),
  };
}
