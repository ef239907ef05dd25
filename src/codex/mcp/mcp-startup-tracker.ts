import { setTimeout as delay } from "node:timers/promises";
import { asRecord } from "../../json-record.js";

/** How often {@link McpStartupTracker.settle} looks again. */
const POLL_MS = 50;

/** A server's startup as codex reported it: `starting`, then `ready`, `failed` or `cancelled`. */
export type McpStartupState = "starting" | "ready" | "failed" | "cancelled";

const TERMINAL: ReadonlySet<string> = new Set(["ready", "failed", "cancelled"]);

/** Notification methods that report MCP server startup, by codex generation. */
const MCP_STARTUP_METHODS = {
  /** 0.117+: `{name, status: starting|ready|failed|cancelled, threadId?}` per server. */
  status: "mcpServer/startupStatus/updated",
  /** Up to 0.114: `{msg: {type, server, status: {state}}}` per server. */
  legacyUpdate: "codex/event/mcp_startup_update",
  /** Up to 0.114: `{msg: {type, ready: [names], failed: [{server}], cancelled: [names]}}` once per thread. */
  legacyComplete: "codex/event/mcp_startup_complete",
} as const;

/**
 * Collects what codex reports about MCP server startup, from both generations of notifications, and lets a
 * caller wait until the report is complete. Feed it every notification with {@link observe}.
 */
export class McpStartupTracker {
  readonly #states = new Map<string, McpStartupState>();
  #complete = false;
  #lastChange = Date.now();
  #threadId: string | null = null;

  /** The thread whose reports count; before it is known every report counts (the child has one thread). */
  setThread(threadId: string): void {
    this.#threadId = threadId;
  }

  /** Each reported server's last state. */
  get states(): ReadonlyMap<string, McpStartupState> {
    return this.#states;
  }

  /** A legacy `mcp_startup_complete` arrived: the per-thread startup summary is final. */
  get complete(): boolean {
    return this.#complete;
  }

  /** Whether any report of either generation arrived. */
  get reported(): boolean {
    return this.#states.size > 0 || this.#complete;
  }

  /** Takes one notification; ignores anything that is not a startup report for this thread. */
  observe(method: string, rawParams: unknown): void {
    const params = asRecord(rawParams);
    if (method === MCP_STARTUP_METHODS.status) {
      const thread = params.threadId;
      if (typeof thread === "string" && this.#threadId !== null && thread !== this.#threadId) return;
      if (typeof params.name === "string" && isState(params.status)) this.#set(params.name, params.status);
      return;
    }
    const msg = asRecord(params.msg);
    if (method === MCP_STARTUP_METHODS.legacyUpdate) {
      const state = asRecord(msg.status).state;
      if (typeof msg.server === "string" && isState(state)) this.#set(msg.server, state);
      return;
    }
    if (method === MCP_STARTUP_METHODS.legacyComplete) {
      for (const name of stringsOf(msg.ready)) this.#set(name, "ready");
      for (const entry of Array.isArray(msg.failed) ? msg.failed : []) {
        const server = typeof entry === "string" ? entry : asRecord(entry).server;
        if (typeof server === "string") this.#set(server, "failed");
      }
      for (const name of stringsOf(msg.cancelled)) this.#set(name, "cancelled");
      this.#complete = true;
      this.#changed();
    }
  }

  /**
   * Resolves once the report is settled or `deadlineMs` has passed (`settled` false). Settled means: with
   * `legacy`, the `mcp_startup_complete` summary arrived; otherwise every reported server is in a final state,
   * every name in `awaited` has reported, and no report arrived for `quietMs`, counted from this call at the
   * earliest (a slow `thread/start` must not use up the quiet period before codex could report anything).
   */
  async settle(options: {
    legacy: boolean;
    awaited: readonly string[];
    quietMs: number;
    deadlineMs: number;
    signal?: AbortSignal;
  }): Promise<boolean> {
    const begun = Date.now();
    const deadline = begun + options.deadlineMs;
    for (;;) {
      options.signal?.throwIfAborted();
      const now = Date.now();
      if (this.#isSettled(options, now, begun)) return true;
      if (now >= deadline) return false;
      await delay(Math.min(POLL_MS, deadline - now));
    }
  }

  #isSettled(
    options: { legacy: boolean; awaited: readonly string[]; quietMs: number },
    now: number,
    begun: number,
  ): boolean {
    if (options.legacy) return this.#complete;
    if (options.awaited.some((name) => !TERMINAL.has(this.#states.get(name) ?? ""))) return false;
    if ([...this.#states.values()].some((state) => !TERMINAL.has(state))) return false;
    return now - Math.max(this.#lastChange, begun) >= options.quietMs;
  }

  #set(name: string, state: McpStartupState): void {
    const previous = this.#states.get(name);
    // a final state is not undone by a late `starting`
    if (previous !== undefined && TERMINAL.has(previous) && state === "starting") return;
    this.#states.set(name, state);
    this.#changed();
  }

  #changed(): void {
    this.#lastChange = Date.now();
  }
}

function isState(value: unknown): value is McpStartupState {
  return value === "starting" || value === "ready" || value === "failed" || value === "cancelled";
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
