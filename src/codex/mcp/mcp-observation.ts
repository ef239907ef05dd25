import { asRecord, isRecord } from "../../json-record.js";
import { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import { JSON_RPC_CODES } from "../../jsonl/json-rpc-codes.js";
import type { StdioChild, Launcher } from "../../process/stdio-child.js";
import { setTimeout as delay } from "node:timers/promises";
import { spawnStdioChild } from "../../process/stdio-launcher.js";
import { codexCapabilities, type CodexCapabilities } from "../versions/capabilities.js";
import { performHandshake } from "../app-server/handshake.js";
import { assertSupportedVersion } from "../versions/supported-version.js";
import type { McpInventoryEntry } from "./mcp-inventory-parse.js";
import { codexLaunchSpec, type CodexLaunch } from "../launch/codex-launch.js";
import {
  judgeServer,
  reportedError,
  type McpEvidence,
  type McpIsolationPolicyName,
  type McpIsolationPolicyRun,
  type McpServerObservation,
} from "./mcp-isolation-report.js";
import { McpStartupTracker } from "./mcp-startup-tracker.js";
import { RennetError } from "../../errors.js";

// eslint-disable-next-line no-control-regex -- matching terminal escape sequences is the point
const ANSI_ESCAPE = /\u001b\[[0-9;]*[A-Za-z]/g;

/** How to launch the app-servers an observation asks. */
export interface McpObservationOptions {
  codex: CodexLaunch;
  /** Environment of every child (default `process.env`), merged under `codex.env`. Holds the user's CODEX_HOME. */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Deadline of each handshake request (`initialize`, `config/read`, `thread/start`). Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * Deadline of `mcpServerStatus/list` (which waits for every starting server), and of the wait for the
   * startup report where codex has no `runtimeStatus`. Default 90 s.
   */
  statusTimeoutMs?: number;
  /** Where codex has no `runtimeStatus`: how long startup reports must be quiet to count as complete. Default 1.5 s. */
  startupQuietMs?: number;
  /** Starts the app-servers. Default: {@link spawnStdioChild} (the whole tree is terminated after each run). */
  launcher?: Launcher;
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

const MAX_STATUS_PAGES = 100;

/** One server in the status list: its `runtimeStatus` (null when absent) and how many tools it has. */
interface ListedStatus {
  runtimeStatus: string | null;
  tools: number;
}

/**
 * Every page of the MCP status list, asked about `threadId` where codex scopes the list to a thread. Before
 * 0.145 the list is not about the thread's servers, so it is not asked at all (empty map).
 */
async function listStatuses(
  connection: JsonRpcConnection,
  caps: CodexCapabilities,
  threadId: string,
  timeoutMs: number,
): Promise<Map<string, ListedStatus>> {
  const statuses = new Map<string, ListedStatus>();
  if (!caps.mcpStatusThreadScoped) return statuses;
  let cursor: string | null = null;
  for (let page = 0; page < MAX_STATUS_PAGES; page++) {
    const listed = asRecord(
      await connection.request(
        "mcpServerStatus/list",
        { threadId, detail: "toolsAndAuthOnly", ...(cursor ? { cursor } : {}) },
        { timeoutMs },
      ),
    );
    for (const item of Array.isArray(listed.data) ? listed.data : []) {
      const record = asRecord(item);
      if (typeof record.name === "string") {
        statuses.set(record.name, {
          runtimeStatus: typeof record.runtimeStatus === "string" ? record.runtimeStatus : null,
          tools: Object.keys(asRecord(record.tools)).length,
        });
      }
    }
    cursor = typeof listed.nextCursor === "string" ? listed.nextCursor : null;
    if (!cursor) break;
  }
  return statuses;
}

/**
 * Launches `codex app-server <appServerArgs>` and records every MCP server's state: `initialize` (whose user
 * agent names the version, hence what it can report: see capabilities.ts), `config/read {includeLayers:true,
 * cwd}`, `thread/start <threadStartParams>` (plus `threadConfig` where launch overrides do not reach threads),
 * then, where codex has `runtimeStatus`, `mcpServerStatus/list {threadId}` (all pages, asked again while a
 * requested server is `starting`); otherwise it waits for the startup report to settle (legacy
 * `mcp_startup_complete`, or quiet `mcpServer/startupStatus/updated`) and lists the thread's tools where the
 * list is thread-scoped. Startup notifications of both generations are recorded throughout. `run.evidence`
 * says what the verdicts rest on; `run.unproven` why they cannot. Failures become `run.error`. The app-server
 * tree is terminated before it resolves. Rejects only on abort, with `signal.reason`.
 */
export async function observeMcpServers(
  options: McpObservationOptions,
  request: McpObservationRequest,
): Promise<McpObservation> {
  const { codex, signal } = options;
  const cwd = request.threadStartParams.cwd;
  const run: McpIsolationPolicyRun = {
    policy: request.policy,
    requested: [...request.requested],
    appServerArgs: [...request.appServerArgs],
    overrideLayerSeen: false,
    error: null,
    servers: [],
    evidence: null,
    unproven: null,
    ok: false,
  };
  const meta: McpObservation = { run, codexHome: null, userAgent: null };
  signal?.throwIfAborted();
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const launcher = options.launcher ?? spawnStdioChild;
  const child: StdioChild = launcher(
    codexLaunchSpec(codex, ["app-server", ...run.appServerArgs], {
      cwd,
      baseEnv: options.env ?? process.env,
    }),
  );
  const startup = new McpStartupTracker();
  const connection = new JsonRpcConnection(child.transport, {
    notification: (frame) => {
      startup.observe(frame.method, frame.params);
    },
    request: (frame) => {
      connection.respondError(
        frame.id,
        JSON_RPC_CODES.methodNotFound,
        `the isolation check does not handle ${frame.method}`,
      );
    },
    stray: () => {},
    invalid: () => {},
    closed: () => {},
  });
  const onAbort = (): void => {
    void child.terminate();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const init = await performHandshake(connection, { timeoutMs: requestTimeoutMs });
    if (typeof init.result.codexHome === "string") meta.codexHome = init.result.codexHome;
    meta.userAgent = init.userAgent;

    const read = asRecord(
      await connection.request("config/read", { includeLayers: true, cwd }, { timeoutMs: requestTimeoutMs }),
    );
    const effective = asRecord(asRecord(read.config).mcp_servers);
    run.overrideLayerSeen = sessionFlagsLayerSetsMcpServers(read.layers);

    // a codex older than the oldest supported one cannot run Rennet's thread/start at all
    assertSupportedVersion(init.codexVersion);
    const caps = codexCapabilities(init.codexVersion);
    const params = { ...request.threadStartParams };
    if (!caps.launchOverridesReachThreads && request.threadConfig) {
      params.config = { ...asRecord(params.config), ...request.threadConfig };
    }
    const started = asRecord(
      await connection.request("thread/start", params, { timeoutMs: requestTimeoutMs }),
    );
    const threadId = asRecord(started.thread).id;
    if (typeof threadId !== "string")
      throw new RennetError("THREAD_ID_MISSING", "thread/start returned no thread id");
    startup.setThread(threadId);

    const statusTimeoutMs = options.statusTimeoutMs ?? 90_000;
    let statuses = new Map<string, ListedStatus>();
    if (caps.mcpRuntimeStatus) {
      statuses = await listStatuses(connection, caps, threadId, statusTimeoutMs);
      // 0.150 may list a requested server as `starting` although it connects right after: ask again
      const deadline = Date.now() + statusTimeoutMs;
      while (request.requested.some((name) => statuses.get(name)?.runtimeStatus === "starting")) {
        if (Date.now() >= deadline) break;
        await delay(250);
        statuses = await listStatuses(connection, caps, threadId, statusTimeoutMs);
      }
    }
    const hasRuntimeStatus = [...statuses.values()].some((status) => status.runtimeStatus !== null);
    let evidence: McpEvidence = "runtimeStatus";
    if (!hasRuntimeStatus) {
      const legacy = caps.legacyEventNotifications && !caps.mcpStartupStatusNotification;
      evidence = legacy ? "legacyStartupEvents" : "startupNotifications";
      const settled = await startup.settle({
        legacy,
        // a requested server the effective config lacks will never report: its row says missing after the
        // quiet period instead of after the whole deadline
        awaited: request.requested.filter((name) => configEnabled(effective, name) === true),
        quietMs: options.startupQuietMs ?? 1500,
        deadlineMs: statusTimeoutMs,
        ...(signal ? { signal } : {}),
      });
      if (!settled && legacy) {
        run.unproven =
          `codex ${caps.version ?? "(unknown version)"} reports MCP startup only through ` +
          `codex/event/mcp_startup_complete, which did not arrive within ${statusTimeoutMs} ms`;
      }
      if (caps.mcpStatusThreadScoped && statuses.size === 0) {
        statuses = await listStatuses(connection, caps, threadId, statusTimeoutMs);
      }
    }
    run.evidence = evidence;
    run.servers = serverObservations(request, effective, statuses, startup.states, evidence);
    run.ok =
      run.unproven === null &&
      run.overrideLayerSeen &&
      run.servers.every((server) => server.verdict === "ok");
  } catch (error) {
    signal?.throwIfAborted();
    const info = reportedError(error);
    // codex colours its log lines; keep the text only
    const tail = child.stderrTail().replace(ANSI_ESCAPE, "").trim();
    run.error = tail ? { ...info, message: `${info.message}; app-server stderr: ${tail.slice(-600)}` } : info;
    run.ok = false;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await child.terminate();
    connection.close();
  }
  return meta;
}

/** Whether the effective `mcp_servers` table enables `name`; null when it has no such entry. Pure. */
function configEnabled(effective: Record<string, unknown>, name: string): boolean | null {
  const entry = Object.hasOwn(effective, name) ? effective[name] : undefined;
  return isRecord(entry) ? entry.enabled !== false : null;
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
