/**
 * The MCP isolation control for Claude Code: with the user's installed claude and real configuration, and no model
 * turn, it proves that Rennet's MCP policies hold. Under the empty policy Claude Code runs no MCP server at all;
 * under a loopback-only policy exactly the requested server, which must connect. Claude Code's own `mcp_status`
 * says which servers it runs (its user, project and local ones would be listed with their scope), and the
 * loopback server Rennet starts says whether Claude connected to it.
 */
import { isRennetError } from "../../errors.js";
import { startLoopbackMcpServer, type LoopbackMcpServer } from "../../mcp/loopback-mcp-server.js";
import type { Launcher } from "../../process/stdio-child.js";
import { spawnStdioChild } from "../../process/stdio-launcher.js";
import { claudeCapabilities } from "../capabilities.js";
import { absoluteConfigDir } from "../claude-config-dir.js";
import { claudeTurnArgs, type ClaudeMcpSelection } from "../turn-argv.js";
import { probeMcpStatus, type ClaudeMcpServerStatus } from "./mcp-status-probe.js";

/** The name of the loopback server the control asks for. */
export const ISOLATION_PROBE_SERVER = "rennet-isolation-probe";

export type ClaudeMcpPolicyName = "empty" | "loopback";

/** One policy's run. */
export interface ClaudeMcpPolicyRun {
  policy: ClaudeMcpPolicyName;
  /** The servers Claude Code reported, in its order. */
  servers: ClaudeMcpServerStatus[];
  /** What breaks isolation, one sentence each; empty when the policy held (or the run failed). */
  problems: string[];
  /** Why the run could not observe anything; null when it did. */
  error: { code: string; message: string } | null;
  /** MCP sessions the loopback server saw during this run (loopback policy). */
  probeSessions: number;
  elapsedMs: number;
}

/** The control's report. JSON-serializable (for `rennet claude mcp-isolation --json`). */
export interface ClaudeMcpIsolationReport {
  claude: string;
  /** From Claude Code's `initialize` answer, when it says. */
  version: string | null;
  cwd: string;
  /** Whether the repository's own settings were let in (`--trust-project`) for the runs. */
  trustProject: boolean;
  /** `ok`: both policies held; `failed`: one did not; `error`: a run could not observe. */
  verdict: "ok" | "failed" | "error";
  runs: ClaudeMcpPolicyRun[];
}

export interface ClaudeMcpIsolationOptions {
  /** The claude executable to start. */
  claude: string;
  /** The environment (the user's own: their HOME and configuration). Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** The repository directory. Default `process.cwd()`. */
  cwd?: string;
  trustProject?: boolean;
  signal?: AbortSignal;
  /** Tests: starts the child (default: a real process). */
  launcher?: Launcher;
  /** How long servers may stay `pending` in each run. Default 15 s. */
  settleMs?: number;
}

/**
 * Runs the control: one claude per policy, each started with the turn's own arguments (permission mode
 * `default`: nothing runs, so nothing needs bypassing), asked with control requests only. Every process it
 * started is gone when it resolves. Never rejects except with `signal.reason`.
 */
export async function runClaudeMcpIsolationCheck(
  options: ClaudeMcpIsolationOptions,
): Promise<ClaudeMcpIsolationReport> {
  const cwd = options.cwd ?? process.cwd();
  const trustProject = options.trustProject === true;
  const runs: ClaudeMcpPolicyRun[] = [];
  let version: string | null = null;
  for (const policy of ["empty", "loopback"] as const) {
    const run = await runPolicy(policy, options, cwd, trustProject, (v) => (version ??= v));
    runs.push(run);
  }
  return { claude: options.claude, version, cwd, trustProject, verdict: isolationVerdict(runs), runs };
}

async function runPolicy(
  policy: ClaudeMcpPolicyName,
  options: ClaudeMcpIsolationOptions,
  cwd: string,
  trustProject: boolean,
  onVersion: (version: string) => void,
): Promise<ClaudeMcpPolicyRun> {
  const started = Date.now();
  let probe: LoopbackMcpServer | null = null;
  try {
    if (policy === "loopback") probe = await startLoopbackMcpServer({ serverName: ISOLATION_PROBE_SERVER });
    const mcp: ClaudeMcpSelection = {
      servers: probe ? { [ISOLATION_PROBE_SERVER]: { type: "http", url: probe.url } } : {},
    };
    const env = options.env ?? process.env;
    const observation = await probeMcpStatus({
      launcher: options.launcher ?? spawnStdioChild,
      command: options.claude,
      args: claudeTurnArgs({
        capabilities: claudeCapabilities(null),
        permissionMode: "default",
        trustProject,
        mcp,
      }),
      cwd,
      env: { ...env, ...absoluteConfigDir(env) },
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
    });
    if (observation.version !== null) onVersion(observation.version);
    const probeSessions = probe?.sessionCount ?? 0;
    return {
      policy,
      servers: observation.servers,
      problems: judgePolicy(policy, observation.servers, probeSessions),
      error: null,
      probeSessions,
      elapsedMs: Date.now() - started,
    };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const reported = isRennetError(error)
      ? { code: error.code, message: error.message }
      : { code: "CLAUDE_MCP_PROBE_FAILED", message: String(error) };
    return {
      policy,
      servers: [],
      problems: [],
      error: reported,
      probeSessions: 0,
      elapsedMs: Date.now() - started,
    };
  } finally {
    await probe?.close();
  }
}

/**
 * What breaks isolation under `policy`, given the servers Claude Code reported and the MCP sessions the loopback
 * server saw: any server but the probe (under the empty policy, any server at all), and under the loopback
 * policy a probe that is missing, not connected, or never reached. Pure.
 */
export function judgePolicy(
  policy: ClaudeMcpPolicyName,
  servers: readonly ClaudeMcpServerStatus[],
  probeSessions: number,
): string[] {
  const problems: string[] = [];
  for (const server of servers) {
    if (policy === "loopback" && server.name === ISOLATION_PROBE_SERVER) continue;
    const where = server.scope === null ? "" : ` (${server.scope} scope)`;
    problems.push(`${server.name}${where} is in the turn's MCP servers, status ${server.status}`);
  }
  if (policy === "loopback") {
    const probe = servers.find((server) => server.name === ISOLATION_PROBE_SERVER);
    if (!probe)
      problems.push(`the requested server ${ISOLATION_PROBE_SERVER} is not in the turn's MCP servers`);
    else if (probe.status !== "connected")
      problems.push(
        `the requested server ${ISOLATION_PROBE_SERVER} is ${probe.status}${probe.error ? `: ${probe.error}` : ""}`,
      );
    if (probeSessions === 0) problems.push("the loopback MCP server saw no connection from claude");
  }
  return problems;
}

/** `error` when a run could not observe, else `failed` when a policy did not hold, else `ok`. Pure. */
function isolationVerdict(runs: readonly ClaudeMcpPolicyRun[]): ClaudeMcpIsolationReport["verdict"] {
  if (runs.some((run) => run.error !== null)) return "error";
  return runs.every((run) => run.problems.length === 0) ? "ok" : "failed";
}
