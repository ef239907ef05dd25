import { asRecord } from "../../json-record.js";
import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import type { Launcher } from "../../process/stdio-child.js";
import { spawnStdioChild } from "../../process/stdio-launcher.js";
import type { CodexLaunch } from "../launch/codex-launch.js";
import { appServerLaunch } from "../app-server/app-server-launch.js";
import { AppServerSession } from "../app-server/app-server-session.js";
import { codexCapabilities, type CodexCapabilities } from "../versions/capabilities.js";
import { assertSupportedVersion } from "../versions/supported-version.js";
import { RennetError } from "../../errors.js";
import { JSON_RPC_CODES } from "../../jsonl/json-rpc-codes.js";
import type { McpInventoryEntry } from "./mcp-inventory-parse.js";
import {
  judgeServer,
  reportedError,
  SERVER_STARTING_FEATURES,
  type McpEvidence,
  type McpIsolationPolicyName,
  type McpIsolationPolicyRun,
  type McpServerObservation,
} from "./mcp-isolation-report.js";
import { McpStartupTracker } from "./mcp-startup-tracker.js";
import { collectMcpStatuses, configEnabled, type ListedStatus } from "./mcp-status-list.js";

// eslint-disable-next-line no-control-regex -- matching terminal escape sequences is the point
const ANSI_ESCAPE = /\u001b\[[0-9;]*[A-Za-z]/g;

/** How to launch the app-servers an observation asks. */
export interface McpObservationOptions {
  /** The codex to run: a launch (`ResolvedCodex.launch`, e.g. of `discoverCodex().chosen`). */
  codex: CodexLaunch;
  /** Environment of every child (default `process.env`), merged under `codex.env`. Holds the user's CODEX_HOME. */
  env?: NodeJS.ProcessEnv | undefined;
  signal?: AbortSignal | undefined;
  /** Deadline of each handshake request (`initialize`, `config/read`, `thread/start`). Default 30 s. */
  requestTimeoutMs?: number | undefined;
  /**
   * Deadline of `mcpServerStatus/list` (which waits for every starting server), and of the wait for the
   * startup report where codex has no `runtimeStatus`. Default 90 s.
   */
  statusTimeoutMs?: number | undefined;
  /** Where codex has no `runtimeStatus`: how long startup reports must be quiet to count as complete. Default 1.5 s. */
  startupQuietMs?: number | undefined;
  /** Starts the app-servers. Default: {@link spawnStdioChild} (the whole tree is terminated after each run). */
  launcher?: Launcher | undefined;
}

/** One launch to observe: the arguments after `app-server`, what they request, and the thread to start. */
export interface McpObservationRequest {
  policy: McpIsolationPolicyName;
  /** Names the arguments request; every other server must stay disabled and unstarted. */
  requested: string[];
  appServerArgs: string[];
  /** The configured servers, so that each gets a row even if codex stops mentioning it. */
  inventory: readonly McpInventoryEntry[];
  /** `thread/start` params; must hold `cwd` (also used for `config/read`). */
  threadStartParams: Record<string, unknown> & { cwd: string };
  /**
   * The policy as a `thread/start` config fragment (`{mcp_servers}`), merged into `threadStartParams.config`
   * where codex does not apply launch overrides to a thread's servers (`launchOverridesReachThreads`).
   */
  threadConfig?: Record<string, unknown>;
}

/** What one observed launch showed, plus what `initialize` said about the app-server. */
export interface McpObservation {
  run: McpIsolationPolicyRun;
  codexHome: string | null;
  userAgent: string | null;
}

/**
 * Launches `codex app-server <appServerArgs>` (an {@link AppServerSession}: the state-database race is retried,
 * a stalled handshake waits for codex's last words) and records every MCP server's state: `initialize` (whose
 * user agent names the version, hence what it can report: see capabilities.ts), `config/read {includeLayers:
 * true, cwd}`, `thread/start <threadStartParams>` (plus `threadConfig` where launch overrides do not reach
 * threads), then what that version reports (see {@link collectMcpStatuses}). Startup notifications of both
 * generations are recorded throughout. `run.evidence` says what the verdicts rest on; `run.unproven` why they
 * cannot. Failures become `run.error`. The app-server tree is ended before it resolves. Rejects only on abort,
 * with `signal.reason`.
 */
export async function observeMcpServers(
  options: McpObservationOptions,
  request: McpObservationRequest,
): Promise<McpObservation> {
  const { signal } = options;
  const run: McpIsolationPolicyRun = {
    policy: request.policy,
    requested: [...request.requested],
    appServerArgs: [...request.appServerArgs],
    overrideLayerSeen: false,
    features: [],
    error: null,
    servers: [],
    evidence: null,
    unproven: null,
    ok: false,
  };
  const meta: McpObservation = { run, codexHome: null, userAgent: null };
  signal?.throwIfAborted();
  const cwd = request.threadStartParams.cwd;
  const startup = new McpStartupTracker();
  const session = AppServerSession.open({
    spec: appServerLaunch(options.codex, run.appServerArgs, { cwd, env: options.env ?? process.env }).spec,
    launcher: options.launcher ?? spawnStdioChild,
    initializeTimeoutMs: options.requestTimeoutMs ?? 30_000,
    handlers: {
      notification: (frame) => startup.observe(frame.method, frame.params),
      request: (frame) =>
        session.connection.respondError(
          frame.id,
          JSON_RPC_CODES.methodNotFound,
          `the isolation check does not handle ${frame.method}`,
        ),
      stray: () => {},
      invalid: () => {},
    },
    ...(signal ? { signal } : {}),
  });
  try {
    const init = await session.ready;
    if (typeof init.result.codexHome === "string") meta.codexHome = init.result.codexHome;
    meta.userAgent = init.userAgent;
    await observeThread(session.connection, options, request, { run, startup, version: init.codexVersion });
  } catch (error) {
    signal?.throwIfAborted();
    const info = reportedError(error);
    // codex colours its log lines; keep the text only
    const tail = session.stderrTail().replace(ANSI_ESCAPE, "").trim();
    run.error = tail ? { ...info, message: `${info.message}; app-server stderr: ${tail.slice(-600)}` } : info;
    run.ok = false;
  } finally {
    await session.end();
  }
  return meta;
}

/** `config/read`, the version check, `thread/start`, the statuses and the verdicts, into `run`. */
async function observeThread(
  connection: JsonRpcConnection,
  options: McpObservationOptions,
  request: McpObservationRequest,
  observed: { run: McpIsolationPolicyRun; startup: McpStartupTracker; version: string | null },
): Promise<void> {
  const { run, startup } = observed;
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const cwd = request.threadStartParams.cwd;
  const read = asRecord(await connection.request("config/read", { includeLayers: true, cwd }, { timeoutMs }));
  const effective = asRecord(asRecord(read.config).mcp_servers);
  run.overrideLayerSeen = sessionFlagsLayerSetsMcpServers(read.layers);
  run.features = effectiveFeatures(asRecord(read.config).features);
  // a codex older than the oldest supported one cannot run Rennet's thread/start at all
  assertSupportedVersion(observed.version);
  const caps = codexCapabilities(observed.version);
  const threadId = await startObservedThread(connection, caps, request, timeoutMs);
  startup.setThread(threadId);
  const { statuses, evidence, unproven } = await collectMcpStatuses({
    connection,
    caps,
    threadId,
    requested: request.requested,
    effective,
    startup,
    statusTimeoutMs: options.statusTimeoutMs ?? 90_000,
    startupQuietMs: options.startupQuietMs ?? 1500,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  run.evidence = evidence;
  run.unproven = unproven;
  run.servers = serverObservations(request, effective, statuses, startup.states, evidence);
  run.ok =
    run.unproven === null &&
    run.overrideLayerSeen &&
    run.features.every((feature) => feature.enabled !== true) &&
    run.servers.every((s) => s.verdict === "ok");
}

/** `thread/start` with the policy as thread config where launch overrides do not reach threads; its id. */
async function startObservedThread(
  connection: JsonRpcConnection,
  caps: CodexCapabilities,
  request: McpObservationRequest,
  timeoutMs: number,
): Promise<string> {
  const params = { ...request.threadStartParams };
  if (!caps.launchOverridesReachThreads && request.threadConfig) {
    params.config = { ...asRecord(params.config), ...request.threadConfig };
  }
  const started = asRecord(await connection.request("thread/start", params, { timeoutMs }));
  const threadId = asRecord(started.thread).id;
  if (typeof threadId !== "string")
    throw new RennetError("THREAD_ID_MISSING", "thread/start returned no thread id");
  return threadId;
}

/** {@link SERVER_STARTING_FEATURES} as `config/read`'s effective `features` table holds them. Pure. */
function effectiveFeatures(features: unknown): McpIsolationPolicyRun["features"] {
  const table = asRecord(features);
  return SERVER_STARTING_FEATURES.map((name) => {
    const value = Object.hasOwn(table, name) ? table[name] : undefined;
    return { name, enabled: typeof value === "boolean" ? value : null };
  });
}

/** Whether `config/read`'s layers hold a `sessionFlags` layer carrying `mcp_servers` (the override took effect). Pure. */
export function sessionFlagsLayerSetsMcpServers(layers: unknown): boolean {
  if (!Array.isArray(layers)) return false;
  return layers.some((layer) => {
    const record = asRecord(layer);
    // `name` is `{type: "sessionFlags"}` from 0.80, the bare string `"sessionFlags"` on 0.72
    const name = typeof record.name === "string" ? record.name : asRecord(record.name).type;
    return name === "sessionFlags" && asRecord(record.config).mcp_servers !== undefined;
  });
}

/**
 * One row per server anyone mentioned (inventory, request, effective config, status list, startup
 * notifications), each with its verdict. Pure.
 */
function serverObservations(
  request: McpObservationRequest,
  effective: Record<string, unknown>,
  statuses: ReadonlyMap<string, ListedStatus>,
  startup: ReadonlyMap<string, string>,
  evidence: McpEvidence,
): McpServerObservation[] {
  const configured = new Set(request.inventory.map((entry) => entry.name));
  const requested = new Set(request.requested);
  const names = new Set<string>([
    ...configured,
    ...requested,
    ...Object.keys(effective),
    ...statuses.keys(),
    ...startup.keys(),
  ]);
  return [...names].map((server): McpServerObservation => {
    const observation = {
      name: server,
      requested: requested.has(server),
      configured: configured.has(server),
      configEnabled: configEnabled(effective, server),
      runtimeStatus: statuses.get(server)?.runtimeStatus ?? null,
      tools: statuses.get(server)?.tools ?? null,
      startup: startup.get(server) ?? null,
    };
    return { ...observation, verdict: judgeServer(observation, evidence) };
  });
}
