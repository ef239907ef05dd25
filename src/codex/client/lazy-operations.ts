/**
 * Entry points whose implementation is loaded on first call: discovery (probes, loci, the login shell), the
 * MCP isolation control (inventory, TOML overrides, the loopback MCP server) and the project trust check. A plain `createCodex()` turn with
 * an explicit codex never loads them, so importing the package stays cheap.
 */
import { loadModule } from "../../load-module.js";
import type * as Discovery from "../discovery/discover.js";
import type * as McpIsolationCheck from "../mcp/mcp-isolation-check.js";
import type { DiscoverOptions } from "../discovery/discover.js";
import type { CodexDiscoveryReport as DiscoveryReport } from "../discovery/discover.js";
import type { McpIsolationCheckOptions } from "../mcp/mcp-isolation-check.js";
import type { McpIsolationReport } from "../mcp/mcp-isolation-report.js";
import type * as ProjectTrustCheck from "../trust/project-trust-check.js";
import type { ProjectTrustCheckOptions, ProjectTrustReport } from "../trust/project-trust-check.js";

/** Finds the user's Codex (see `docs/discovery.md`). Never throws except with `signal.reason` on abort. */
export async function discoverCodex(options: DiscoverOptions = {}): Promise<DiscoveryReport> {
  const { discoverCodex: discover } = await loadModule<typeof Discovery>(
    new URL("../discovery/discover.js", import.meta.url),
    () => import("../discovery/discover.js"),
  );
  return discover(options);
}

/** The MCP isolation control (see `docs/mcp-policy.md`). Rejects only on abort, with `signal.reason`. */
export async function runMcpIsolationCheck(options: McpIsolationCheckOptions): Promise<McpIsolationReport> {
  const { runMcpIsolationCheck: run } = await loadModule<typeof McpIsolationCheck>(
    new URL("../mcp/mcp-isolation-check.js", import.meta.url),
    () => import("../mcp/mcp-isolation-check.js"),
  );
  return run(options);
}

/**
 * The trust a turn in `cwd` would get and its effect on the repository's own `.codex/` layer on this codex
 * (see `docs/security.md`). Starts one app-server (no thread); rejects when codex fails, or with `signal.reason`.
 */
export async function checkProjectTrust(options: ProjectTrustCheckOptions): Promise<ProjectTrustReport> {
  const { checkProjectTrust: check } = await loadModule<typeof ProjectTrustCheck>(
    new URL("../trust/project-trust-check.js", import.meta.url),
    () => import("../trust/project-trust-check.js"),
  );
  return check(options);
}
