import { asRecord, isRecord } from "../../json-record.js";
import { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import { JSON_RPC_CODES } from "../../jsonl/json-rpc-codes.js";
import type { AppServerProcess, Launcher } from "../../process/app-server-process.js";
import { spawnAppServer } from "../../process/spawn-app-server.js";
import { performHandshake } from "../handshake.js";
import type { McpInventoryEntry } from "./mcp-inventory-parse.js";
import { codexLaunchSpec, type CodexLaunch } from "../codex-launch.js";
import {
  judgeServer,
  reportedError,
  type McpIsolationPolicyName,
  type McpIsolationPolicyRun,
  type McpServerObservation,
} from "./mcp-isolation-report.js";

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
  /** Deadline of `mcpServerStatus/list`, which waits for every starting server. Default 90 s. */
  statusTimeoutMs?: number;
  /** Starts the app-servers. Default: {@link spawnAppServer} (the whole tree is terminated after each run). */
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
}

/** What one observed launch showed, plus what `initialize` said about the app-server. */
export interface McpObservation {
  run: McpIsolationPolicyRun;
  codexHome: string | null;
  userAgent: string | null;
}

const MAX_STATUS_PAGES = 100;

/**
 * Launches `codex app-server <appServerArgs>` and records every MCP server's state: `initialize`,
 * `config/read {includeLayers:true, cwd}`, `thread/start <threadStartParams>`, `mcpServerStatus/list {threadId}`
 * (all pages) and the thread's `mcpServer/startupStatus/updated` notifications. Failures become `run.error`.
 * The app-server tree is terminated before it resolves. Rejects only on abort, with `signal.reason`.
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
    ok: false,
  };
  const meta: McpObservation = { run, codexHome: null, userAgent: null };
  signal?.throwIfAborted();
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const launcher = options.launcher ?? spawnAppServer;
  const child: AppServerProcess = launcher(
    codexLaunchSpec(codex, ["app-server", ...run.appServerArgs], {
      cwd,
      baseEnv: options.env ?? process.env,
    }),
  );
  const startup = new Map<string, string>();
  let threadId: string | null = null;
  const connection = new JsonRpcConnection(child.transport, {
    notification: (frame) => {
      if (frame.method !== "mcpServer/startupStatus/updated") return;
      const params = asRecord(frame.params);
      if (typeof params.name !== "string" || typeof params.status !== "string") return;
      // a thread other than ours cannot exist in this child; a null thread id is a process-wide server
      if (
        params.threadId === null ||
        params.threadId === undefined ||
        threadId === null ||
        params.threadId === threadId
      ) {
        startup.set(params.name, params.status);
      }
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

    const started = asRecord(
      await connection.request("thread/start", request.threadStartParams, { timeoutMs: requestTimeoutMs }),
    );
    const id = asRecord(started.thread).id;
    if (typeof id !== "string") throw new Error("thread/start returned no thread id");
    threadId = id;

    const statuses = new Map<string, string | null>();
    let cursor: string | null = null;
    for (let page = 0; page < MAX_STATUS_PAGES; page++) {
      const listed = asRecord(
        await connection.request(
          "mcpServerStatus/list",
          { threadId, detail: "toolsAndAuthOnly", ...(cursor ? { cursor } : {}) },
          { timeoutMs: options.statusTimeoutMs ?? 90_000 },
        ),
      );
      for (const item of Array.isArray(listed.data) ? listed.data : []) {
        const record = asRecord(item);
        if (typeof record.name === "string") {
          statuses.set(record.name, typeof record.runtimeStatus === "string" ? record.runtimeStatus : null);
        }
      }
      cursor = typeof listed.nextCursor === "string" ? listed.nextCursor : null;
      if (!cursor) break;
    }

    run.servers = serverObservations(request, effective, statuses, startup);
    run.ok = run.overrideLayerSeen && run.servers.every((server) => server.verdict === "ok");
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

/** Whether `config/read`'s layers hold a `sessionFlags` layer carrying `mcp_servers` (the override took effect). Pure. */
function sessionFlagsLayerSetsMcpServers(layers: unknown): boolean {
  if (!Array.isArray(layers)) return false;
  return layers.some((layer) => {
    const record = asRecord(layer);
    return asRecord(record.name).type === "sessionFlags" && asRecord(record.config).mcp_servers !== undefined;
  });
}

/**
 * One row per server anyone mentioned (inventory, request, effective config, status list, startup
 * notifications), each with its verdict. Pure.
 */
function serverObservations(
  request: McpObservationRequest,
  effective: Record<string, unknown>,
  statuses: ReadonlyMap<string, string | null>,
  startup: ReadonlyMap<string, string>,
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
    const entry = Object.hasOwn(effective, server) ? effective[server] : undefined;
    const observation = {
      name: server,
      requested: requested.has(server),
      configured: configured.has(server),
      configEnabled: isRecord(entry) ? entry.enabled !== false : null,
      runtimeStatus: statuses.get(server) ?? null,
      startup: startup.get(server) ?? null,
    };
    return { ...observation, verdict: judgeServer(observation) };
  });
}
