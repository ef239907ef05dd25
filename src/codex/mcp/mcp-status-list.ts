import { setTimeout as delay } from "node:timers/promises";
import { asRecord, isRecord } from "../../json-record.js";
import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import type { CodexCapabilities } from "../versions/capabilities.js";
import type { McpEvidence } from "./mcp-isolation-report.js";
import type { McpStartupTracker } from "./mcp-startup-tracker.js";

const MAX_STATUS_PAGES = 100;
/** How long to wait before asking again about a requested server still listed as `starting`. */
const STARTING_POLL_MS = 250;

/** One server in the status list: its `runtimeStatus` (null when absent) and how many tools it has. */
export interface ListedStatus {
  runtimeStatus: string | null;
  tools: number;
}

/** What a thread's MCP servers are known to be doing, and what that knowledge rests on. */
export interface McpStatuses {
  statuses: Map<string, ListedStatus>;
  evidence: McpEvidence;
  /** Why the verdicts cannot be proven on this codex; null when they can. */
  unproven: string | null;
}

export interface McpStatusQuery {
  connection: JsonRpcConnection;
  caps: CodexCapabilities;
  threadId: string;
  /** The servers the policy asks for. */
  requested: readonly string[];
  /** The effective `mcp_servers` table (`config/read`). */
  effective: Record<string, unknown>;
  /** Fed every notification of the child since it started. */
  startup: McpStartupTracker;
  /** Deadline of each list request and of the startup report's wait. */
  statusTimeoutMs: number;
  /** How long startup reports must be quiet to count as complete (where codex has no `runtimeStatus`). */
  startupQuietMs: number;
  signal?: AbortSignal;
}

/**
 * Where codex has `runtimeStatus`: the status list of the thread (all pages), asked again while a requested
 * server is `starting`. Otherwise: the startup report, waited for until it settles (legacy
 * `mcp_startup_complete`, or quiet `mcpServer/startupStatus/updated`), and the thread's tools where the list
 * is thread-scoped. `evidence` says which of the three the verdicts rest on.
 */
export async function collectMcpStatuses(query: McpStatusQuery): Promise<McpStatuses> {
  const { caps, statusTimeoutMs } = query;
  let statuses = new Map<string, ListedStatus>();
  if (caps.mcpRuntimeStatus) {
    statuses = await listStatuses(query);
    // 0.150 may list a requested server as `starting` although it connects right after: ask again
    const deadline = Date.now() + statusTimeoutMs;
    while (query.requested.some((name) => statuses.get(name)?.runtimeStatus === "starting")) {
      if (Date.now() >= deadline) break;
      await delay(STARTING_POLL_MS);
      statuses = await listStatuses(query);
    }
  }
  if ([...statuses.values()].some((status) => status.runtimeStatus !== null))
    return { statuses, evidence: "runtimeStatus", unproven: null };
  const legacy = caps.legacyEventNotifications && !caps.mcpStartupStatusNotification;
  const settled = await query.startup.settle({
    legacy,
    // a requested server the effective config lacks will never report: its row says missing after the quiet
    // period instead of after the whole deadline
    awaited: query.requested.filter((name) => configEnabled(query.effective, name) === true),
    quietMs: query.startupQuietMs,
    deadlineMs: statusTimeoutMs,
    ...(query.signal ? { signal: query.signal } : {}),
  });
  const unproven =
    !settled && legacy
      ? `codex ${caps.version ?? "(unknown version)"} reports MCP startup only through ` +
        `codex/event/mcp_startup_complete, which did not arrive within ${statusTimeoutMs} ms`
      : null;
  if (caps.mcpStatusThreadScoped && statuses.size === 0) statuses = await listStatuses(query);
  return { statuses, evidence: legacy ? "legacyStartupEvents" : "startupNotifications", unproven };
}

/**
 * Every page of the MCP status list, asked about the thread where codex scopes the list to a thread. Before
 * 0.145 the list is not about the thread's servers, so it is not asked at all (empty map).
 */
async function listStatuses(query: McpStatusQuery): Promise<Map<string, ListedStatus>> {
  const statuses = new Map<string, ListedStatus>();
  if (!query.caps.mcpStatusThreadScoped) return statuses;
  let cursor: string | null = null;
  for (let page = 0; page < MAX_STATUS_PAGES; page++) {
    const listed = asRecord(
      await query.connection.request(
        "mcpServerStatus/list",
        { threadId: query.threadId, detail: "toolsAndAuthOnly", ...(cursor ? { cursor } : {}) },
        { timeoutMs: query.statusTimeoutMs },
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

/** Whether the effective `mcp_servers` table enables `name`; null when it has no such entry. Pure. */
export function configEnabled(effective: Record<string, unknown>, name: string): boolean | null {
  const entry = Object.hasOwn(effective, name) ? effective[name] : undefined;
  return isRecord(entry) ? entry.enabled !== false : null;
}
