import { describeLaunch } from "../../discovery/executable-launch.js";
import { startLoopbackMcpServer, type LoopbackMcpServer } from "../../mcp/loopback-mcp-server.js";
import type { McpInventoryEntry } from "./mcp-inventory-parse.js";
import { inventoryTrustDirectories, listConfiguredMcpServers } from "./mcp-inventory.js";
import {
  reportedError,
  reportVerdict,
  type McpIsolationPolicyName,
  type McpIsolationPolicyRun,
  type McpIsolationReport,
} from "./mcp-isolation-report.js";
import { buildMcpLaunchArgs, buildMcpThreadConfig } from "./mcp-launch-args.js";
import { parseExplicitMcpPolicy, type ExplicitMcpPolicyValue } from "../../mcp/mcp-policy.js";
import { observeMcpServers, type McpObservationOptions } from "./mcp-observation.js";
import { trustedProjectsConfig } from "./project-trust-overrides.js";
import { assertProjectConfigsAreFiles } from "../trust/project-config-entries.js";
import { codexHomeOf } from "../trust/untrusted-project-guard.js";

/** Options of `runMcpIsolationCheck()`: where it runs, which codex it asks, and how it may be stopped. */
export interface McpIsolationCheckOptions extends McpObservationOptions {
  /** Working directory of the inventory, the app-servers and the threads: its repository's `.codex/` layers count. */
  cwd: string;
}

const PROBE_NAME = "rennet-isolation-probe";

const EMPTY_POLICY = parseExplicitMcpPolicy({ servers: [] });

/** A probe name not already configured. */
function probeName(inventory: readonly McpInventoryEntry[]): string {
  const taken = new Set(inventory.map((entry) => entry.name));
  let name = PROBE_NAME;
  for (let i = 2; taken.has(name); i++) name = `${PROBE_NAME}-${i}`;
  return name;
}

/**
 * The isolation control. Reads the configured inventory (`codex mcp list --json`, project layers of `cwd`
 * included), then for the empty policy and for a loopback-only policy (a throw-away streamable-HTTP MCP server
 * it starts on 127.0.0.1) launches `codex app-server` with that policy's arguments and asks it, without any
 * model turn: `initialize`, `config/read {includeLayers:true, cwd}`, `thread/start {ephemeral:true, cwd,
 * config:{projects: every directory up from cwd trusted}}` (every project layer active, and nothing written
 * into the user's config.toml), then what that codex version reports about MCP startup (see
 * {@link observeMcpServers}); startup notifications are always recorded, since a server started by a
 * thread-level layer can be missing from the status list. `verdict` is `failed` if any server outside the
 * policy is enabled or started, a requested one does not connect, or a step fails; `unproven` if nothing
 * failed but the version cannot prove a point; `ok` only when both runs are proven clean. Every app-server and the loopback server are stopped before
 * it resolves. Rejects only on abort, with `signal.reason`.
 */
export async function runMcpIsolationCheck(options: McpIsolationCheckOptions): Promise<McpIsolationReport> {
  const { codex, cwd, signal } = options;
  signal?.throwIfAborted();
  const report: McpIsolationReport = {
    ok: false,
    codex: describeLaunch(codex),
    cwd,
    codexHome: null,
    userAgent: null,
    inventory: [],
    inventoryError: null,
    runs: [],
    verdict: "failed",
  };
  let inventory: McpInventoryEntry[];
  try {
    // codex would read a non-file .codex/config.toml there at startup (see assertProjectConfigsAreFiles)
    await assertProjectConfigsAreFiles(cwd, codexHomeOf(options.env ?? process.env));
    // its threads trust every directory up from the cwd: the repository's servers must be listed too
    inventory = await listConfiguredMcpServers({ codex, cwd, env: options.env, signal, trustProject: true });
  } catch (error) {
    signal?.throwIfAborted();
    report.inventoryError = reportedError(error);
    report.verdict = reportVerdict(report);
    return report;
  }
  report.inventory = inventory.map((entry) => ({
    name: entry.name,
    enabled: entry.enabled,
    transport: entry.transport.type,
  }));
  const trust = await inventoryTrustDirectories(cwd);

  report.runs.push(await runPolicy(options, "empty", EMPTY_POLICY, inventory, trust, report));
  signal?.throwIfAborted();
  let loopback: LoopbackMcpServer | null = null;
  try {
    loopback = await startLoopbackMcpServer();
    const policy = parseExplicitMcpPolicy({
      servers: [{ name: probeName(inventory), url: loopback.url, startupTimeoutSec: 20 }],
    });
    report.runs.push(await runPolicy(options, "loopback", policy, inventory, trust, report));
    signal?.throwIfAborted();
  } catch (error) {
    signal?.throwIfAborted();
    report.runs.push(failedRun("loopback", [], error));
  } finally {
    await loopback?.close();
  }
  report.verdict = reportVerdict(report);
  report.ok = report.verdict === "ok";
  return report;
}

/** A policy run that could not start: no servers observed, the error kept. */
function failedRun(
  policy: McpIsolationPolicyName,
  requested: string[],
  error: unknown,
): McpIsolationPolicyRun {
  return {
    policy,
    requested,
    appServerArgs: [],
    overrideLayerSeen: false,
    features: [],
    error: reportedError(error),
    servers: [],
    evidence: null,
    unproven: null,
    ok: false,
  };
}

async function runPolicy(
  options: McpIsolationCheckOptions,
  name: McpIsolationPolicyName,
  policy: ExplicitMcpPolicyValue,
  inventory: readonly McpInventoryEntry[],
  trust: readonly string[],
  report: McpIsolationReport,
): Promise<McpIsolationPolicyRun> {
  const requested = policy.servers.map((server) => server.name);
  let appServerArgs: string[];
  let threadConfig: Record<string, unknown>;
  try {
    appServerArgs = buildMcpLaunchArgs(policy, inventory);
    threadConfig = buildMcpThreadConfig(policy, inventory);
  } catch (error) {
    return failedRun(name, requested, error);
  }
  const observed = await observeMcpServers(options, {
    policy: name,
    requested,
    appServerArgs,
    inventory,
    threadConfig,
    threadStartParams: {
      cwd: options.cwd,
      ephemeral: true,
      config: { projects: trustedProjectsConfig(trust) },
    },
  });
  report.codexHome ??= observed.codexHome;
  report.userAgent ??= observed.userAgent;
  return observed.run;
}
