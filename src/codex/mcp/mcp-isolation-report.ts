import { errorMessage } from "../../errors.js";

/**
 * Codex features Rennet turns off because they start MCP servers the policy does not list: `plugins` (under an
 * explicit policy) and `skill_mcp_dependency_install` (on every app-server).
 */
export const SERVER_STARTING_FEATURES = ["plugins", "skill_mcp_dependency_install"] as const;

/** The two policies the isolation control proves. */
export type McpIsolationPolicyName = "empty" | "loopback";

/**
 * What a run's verdicts were judged from, by what the codex version reports:
 * - `runtimeStatus`: `mcpServerStatus/list {threadId}` with each server's `runtimeStatus` (0.150+);
 * - `startupNotifications`: `mcpServer/startupStatus/updated` per started server (0.117+), a quiet period
 *   after the last one, and the thread's status list tools where it is thread-scoped (0.145+);
 * - `legacyStartupEvents`: `codex/event/mcp_startup_update` per started server and the thread's
 *   `codex/event/mcp_startup_complete` summary (up to 0.114).
 * A server codex never started reports nothing in the last two: its silence is the evidence.
 */
export type McpEvidence = "runtimeStatus" | "startupNotifications" | "legacyStartupEvents";

/** What one launched app-server said about one server. JSON-serializable. */
export interface McpServerObservation {
  name: string;
  /** The policy asked for this server. */
  requested: boolean;
  /** Listed by `codex mcp list --json` (user, system and project layers, plugins off). */
  configured: boolean;
  /** `enabled` in the effective config from `config/read {includeLayers:true, cwd}`; null when absent there. */
  configEnabled: boolean | null;
  /** `runtimeStatus` from `mcpServerStatus/list {threadId}`; null when not listed or unavailable. */
  runtimeStatus: string | null;
  /** How many tools the thread's status list shows for it; null when not listed or not asked (before 0.145). */
  tools: number | null;
  /** The last startup state codex reported for the thread (`starting`, `ready`, `failed`, `cancelled`); null when none. */
  startup: string | null;
  /**
   * `ok`: requested and connected, or not requested and never enabled or started. `leak`: not requested, yet
   * enabled, starting, connected or failed to start. `missing`: requested but not enabled and connected.
   */
  verdict: "ok" | "leak" | "missing";
}

/** One policy's launch and what it showed. */
export interface McpIsolationPolicyRun {
  policy: McpIsolationPolicyName;
  /** Names the policy requested. */
  requested: string[];
  /** The arguments appended after `app-server`. */
  appServerArgs: string[];
  /** Whether `config/read` showed a `sessionFlags` layer carrying `mcp_servers` (the override took effect). */
  overrideLayerSeen: boolean;
  /**
   * Each codex feature that starts MCP servers from outside `mcp_servers` ({@link SERVER_STARTING_FEATURES}),
   * with its value in the effective config `config/read` reported: `false` when Rennet's override took effect,
   * `null` when this codex reports no such feature. One reported `true` fails the run.
   */
  features: Array<{ name: string; enabled: boolean | null }>;
  /** Set when the run could not complete (launch, handshake or request failure); the run is then not ok. */
  error: { code: string; message: string } | null;
  servers: McpServerObservation[];
  /** What the verdicts were judged from; null when the run did not get that far. */
  evidence: McpEvidence | null;
  /** Why this codex cannot prove the run's point (the run is then not ok, yet nothing failed); else null. */
  unproven: string | null;
  ok: boolean;
}

/** The isolation control's result. JSON-serializable; `ok` is the exit status. */
export interface McpIsolationReport {
  ok: boolean;
  /** The Codex asked, as one display line. */
  codex: string;
  cwd: string;
  /** From `initialize`: the Codex home the app-server used and its user agent. Null when no run got that far. */
  codexHome: string | null;
  userAgent: string | null;
  /** The configured servers (from `codex mcp list --json`); empty when listing failed. */
  inventory: Array<{ name: string; enabled: boolean; transport: "stdio" | "streamable_http" }>;
  inventoryError: { code: string; message: string } | null;
  runs: McpIsolationPolicyRun[];
  /**
   * `ok`; `failed`: a leak, a missing server, or a step that failed; `unproven`: nothing failed, but this codex
   * cannot prove a point (each run's `unproven` says which).
   */
  verdict: "ok" | "failed" | "unproven";
}

/**
 * A failed report in which nothing was judged wrong: a step could not run (the inventory, a launch, a request)
 * and no server leaked or went missing. The CLI says why and exits 3 instead of reporting a failure. Pure.
 */
export function isolationNotChecked(report: McpIsolationReport): boolean {
  const couldNotRun = report.inventoryError !== null || report.runs.some((run) => run.error !== null);
  return (
    report.verdict !== "ok" &&
    couldNotRun &&
    !report.runs.some((run) => run.servers.some((server) => server.verdict !== "ok"))
  );
}

/** The report's verdict from its runs (see {@link McpIsolationReport.verdict}). Pure. */
export function reportVerdict(
  report: Omit<McpIsolationReport, "verdict" | "ok">,
): McpIsolationReport["verdict"] {
  if (report.inventoryError || report.runs.length !== 2) return "failed";
  const failed = report.runs.some(
    (run) =>
      run.error !== null ||
      !run.overrideLayerSeen ||
      run.features.some((feature) => feature.enabled === true) ||
      run.servers.some((server) => server.verdict !== "ok"),
  );
  if (failed) return "failed";
  return report.runs.some((run) => run.unproven !== null) ? "unproven" : "ok";
}

/** A failure as the report shows it: the error's string `code` (`ERROR` when it has none) and its message. Pure. */
export function reportedError(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    code: typeof code === "string" ? code : "ERROR",
    message: errorMessage(error),
  };
}

/**
 * The verdict for one server under one policy, from the evidence the codex version offers (default
 * `runtimeStatus`). Any startup report for a server the policy did not request is a leak: codex started it.
 * Pure.
 */
export function judgeServer(
  observation: Omit<McpServerObservation, "verdict" | "tools"> & { tools?: number | null },
  evidence: McpEvidence = "runtimeStatus",
): McpServerObservation["verdict"] {
  const { requested, configEnabled, runtimeStatus, startup } = observation;
  const tools = observation.tools ?? 0;
  if (evidence !== "runtimeStatus") {
    if (requested) return configEnabled === true && (startup === "ready" || tools > 0) ? "ok" : "missing";
    return configEnabled === true || startup !== null || tools > 0 ? "leak" : "ok";
  }
  if (requested) return configEnabled === true && runtimeStatus === "connected" ? "ok" : "missing";
  if (configEnabled === true || startup !== null) return "leak";
  if (runtimeStatus === null || runtimeStatus === "disabled") return "ok";
  // not started yet is harmless only for an entry the effective config disables
  return runtimeStatus === "notStarted" && configEnabled === false ? "ok" : "leak";
}
