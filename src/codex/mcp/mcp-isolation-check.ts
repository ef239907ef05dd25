import { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import type { AppServerProcess, Launcher } from "../../process/app-server-process.js";
import { spawnAppServer } from "../../process/spawn-app-server.js";
import { startLoopbackMcpServer, type LoopbackMcpServer } from "../../testkit/loopback-mcp-server.js";
import type { McpInventoryEntry } from "./mcp-inventory-parse.js";
import {
  inventoryTrustDirectories,
  listConfiguredMcpServers,
  type CodexInvocation,
} from "./mcp-inventory.js";
import {
  judgeServer,
  type McpIsolationPolicyName,
  type McpIsolationPolicyRun,
  type McpIsolationReport,
  type McpServerObservation,
} from "./mcp-isolation-report.js";
import { buildMcpLaunchArgs } from "./mcp-launch-args.js";
import type { ExplicitMcpPolicy } from "./mcp-policy.js";
import { trustedProjectsConfig } from "./project-trust-overrides.js";

// eslint-disable-next-line no-control-regex -- matching terminal escape sequences is the point
const ANSI_ESCAPE = /\u001b\[[0-9;]*[A-Za-z]/g;

export interface McpIsolationCheckOptions {
  codex: CodexInvocation;
  /** Environment of every child (default `process.env`), merged under `codex.env`. Holds the user's CODEX_HOME. */
  env?: NodeJS.ProcessEnv;
  /** Working directory of the inventory, the app-servers and the threads: its repository's `.codex/` layers count. */
  cwd: string;
  signal?: AbortSignal;
  /** Deadline of each handshake request (`initialize`, `config/read`, `thread/start`). Default 30 s. */
  requestTimeoutMs?: number;
  /** Deadline of `mcpServerStatus/list`, which waits for every starting server. Default 90 s. */
  statusTimeoutMs?: number;
  /** Starts the app-servers. Default: {@link spawnAppServer} (the whole tree is terminated after each run). */
  launcher?: Launcher;
}

const PROBE_NAME = "rennet-isolation-probe";

function errorInfo(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    code: typeof code === "string" ? code : "ERROR",
    message: error instanceof Error ? error.message : String(error),
  };
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

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
 * into the user's config.toml), then `mcpServerStatus/list {threadId}`; it also records the thread's
 * `mcpServer/startupStatus/updated` notifications, since a server started by a thread-level layer can be
 * missing from the status list. `ok` is false if any server outside the policy is enabled or started, a
 * requested one does not connect, or a step fails. Every app-server and the loopback server are stopped before
 * it resolves. Rejects only on abort, with `signal.reason`.
 */
export async function runMcpIsolationCheck(options: McpIsolationCheckOptions): Promise<McpIsolationReport> {
  const { codex, cwd, signal } = options;
  signal?.throwIfAborted();
  const report: McpIsolationReport = {
    ok: false,
    codex: { command: codex.command, prefixArgs: [...(codex.prefixArgs ?? [])] },
    cwd,
    codexHome: null,
    userAgent: null,
    inventory: [],
    inventoryError: null,
    runs: [],
  };
  let inventory: McpInventoryEntry[];
  try {
    inventory = await listConfiguredMcpServers({ codex, cwd, env: options.env, signal });
  } catch (error) {
    signal?.throwIfAborted();
    report.inventoryError = errorInfo(error);
    return report;
  }
  report.inventory = inventory.map((entry) => ({
    name: entry.name,
    enabled: entry.enabled,
    transport: entry.transport.type,
  }));
  const trust = await inventoryTrustDirectories(cwd);

  report.runs.push(await runPolicy(options, "empty", { servers: [] }, inventory, trust, report));
  signal?.throwIfAborted();
  let loopback: LoopbackMcpServer | null = null;
  try {
    loopback = await startLoopbackMcpServer();
    const policy: ExplicitMcpPolicy = {
      servers: [{ name: probeName(inventory), url: loopback.url, startupTimeoutSec: 20 }],
    };
    report.runs.push(await runPolicy(options, "loopback", policy, inventory, trust, report));
    signal?.throwIfAborted();
  } catch (error) {
    signal?.throwIfAborted();
    report.runs.push({
      policy: "loopback",
      requested: [],
      appServerArgs: [],
      overrideLayerSeen: false,
      error: errorInfo(error),
      servers: [],
      ok: false,
    });
  } finally {
    await loopback?.close();
  }
  report.ok = report.runs.length === 2 && report.runs.every((run) => run.ok);
  return report;
}

async function runPolicy(
  options: McpIsolationCheckOptions,
  name: McpIsolationPolicyName,
  policy: ExplicitMcpPolicy,
  inventory: readonly McpInventoryEntry[],
  trust: readonly string[],
  report: McpIsolationReport,
): Promise<McpIsolationPolicyRun> {
  const requested = policy.servers.map((server) => server.name);
  let appServerArgs: string[];
  try {
    appServerArgs = buildMcpLaunchArgs(policy, inventory);
  } catch (error) {
    return {
      policy: name,
      requested,
      appServerArgs: [],
      overrideLayerSeen: false,
      error: errorInfo(error),
      servers: [],
      ok: false,
    };
  }
  const observed = await observeMcpServers(options, {
    policy: name,
    requested,
    appServerArgs,
    inventory,
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

/**
 * Launches `codex app-server <appServerArgs>` and records every MCP server's state: `initialize`,
 * `config/read {includeLayers:true, cwd}`, `thread/start <threadStartParams>`, `mcpServerStatus/list {threadId}`
 * (all pages) and the thread's `mcpServer/startupStatus/updated` notifications. Failures become `run.error`.
 * The app-server tree is terminated before it resolves. Rejects only on abort, with `signal.reason`.
 */
export async function observeMcpServers(
  options: Omit<McpIsolationCheckOptions, "cwd">,
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
  const inventory = request.inventory;
  signal?.throwIfAborted();
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const launcher = options.launcher ?? spawnAppServer;
  const child: AppServerProcess = launcher({
    command: codex.command,
    args: [...(codex.prefixArgs ?? []), "app-server", ...run.appServerArgs],
    cwd,
    env: { ...(options.env ?? process.env), ...codex.env },
  });
  const startup = new Map<string, string>();
  let threadId: string | null = null;
  const connection = new JsonRpcConnection(child.transport, {
    notification: (frame) => {
      if (frame.method !== "mcpServer/startupStatus/updated") return;
      const params = asRecord(frame.params);
      if (!params || typeof params.name !== "string" || typeof params.status !== "string") return;
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
      connection.respondError(frame.id, -32601, `the isolation check does not handle ${frame.method}`);
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
    const init = asRecord(
      await connection.request(
        "initialize",
        { clientInfo: { name: "rennet", title: "Rennet MCP isolation check", version: "0.1.0" } },
        { timeoutMs: requestTimeoutMs },
      ),
    );
    if (typeof init?.codexHome === "string") meta.codexHome = init.codexHome;
    if (typeof init?.userAgent === "string") meta.userAgent = init.userAgent;
    connection.notify("initialized");

    const read = asRecord(
      await connection.request("config/read", { includeLayers: true, cwd }, { timeoutMs: requestTimeoutMs }),
    );
    const effective = asRecord(asRecord(read?.config)?.mcp_servers) ?? {};
    const layers = Array.isArray(read?.layers) ? read.layers : [];
    run.overrideLayerSeen = layers.some((layer) => {
      const record = asRecord(layer);
      return (
        asRecord(record?.name)?.type === "sessionFlags" && asRecord(record?.config)?.mcp_servers !== undefined
      );
    });

    const started = asRecord(
      await connection.request("thread/start", request.threadStartParams, { timeoutMs: requestTimeoutMs }),
    );
    const id = asRecord(started?.thread)?.id;
    if (typeof id !== "string") throw new Error("thread/start returned no thread id");
    threadId = id;

    const statuses = new Map<string, string | null>();
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const listed = asRecord(
        await connection.request(
          "mcpServerStatus/list",
          { threadId, detail: "toolsAndAuthOnly", ...(cursor ? { cursor } : {}) },
          { timeoutMs: options.statusTimeoutMs ?? 90_000 },
        ),
      );
      for (const item of Array.isArray(listed?.data) ? listed.data : []) {
        const record = asRecord(item);
        if (typeof record?.name === "string") {
          statuses.set(record.name, typeof record.runtimeStatus === "string" ? record.runtimeStatus : null);
        }
      }
      cursor = typeof listed?.nextCursor === "string" ? listed.nextCursor : null;
      if (!cursor) break;
    }

    const names = new Set<string>([
      ...inventory.map((entry) => entry.name),
      ...run.requested,
      ...Object.keys(effective),
      ...statuses.keys(),
      ...startup.keys(),
    ]);
    const requested = new Set(run.requested);
    const configured = new Set(inventory.map((entry) => entry.name));
    run.servers = [...names].map((server): McpServerObservation => {
      const entry = asRecord(effective[server]);
      const observation = {
        name: server,
        requested: requested.has(server),
        configured: configured.has(server),
        configEnabled: entry ? entry.enabled !== false : null,
        runtimeStatus: statuses.get(server) ?? null,
        startup: startup.get(server) ?? null,
      };
      return { ...observation, verdict: judgeServer(observation) };
    });
    run.ok = run.overrideLayerSeen && run.servers.every((server) => server.verdict === "ok");
  } catch (error) {
    signal?.throwIfAborted();
    const info = errorInfo(error);
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
