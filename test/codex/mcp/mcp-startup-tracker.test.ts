import { describe, expect, it } from "vitest";
import { McpStartupTracker } from "../../../src/codex/mcp/mcp-startup-tracker.js";
import { sessionFlagsLayerSetsMcpServers } from "../../../src/internal/test-hooks.js";

const legacyUpdate = (server: string, state: string) => ({
  id: "",
  msg: { type: "mcp_startup_update", server, status: { state } },
  conversationId: "c",
});

describe("McpStartupTracker", () => {
  it("reads v2 startup notifications, for this thread only once it is known", () => {
    const tracker = new McpStartupTracker();
    tracker.observe("mcpServer/startupStatus/updated", { name: "a", status: "starting", error: null });
    tracker.setThread("t1");
    tracker.observe("mcpServer/startupStatus/updated", { name: "a", status: "ready", threadId: "t1" });
    tracker.observe("mcpServer/startupStatus/updated", { name: "b", status: "starting", threadId: "t2" });
    expect(Object.fromEntries(tracker.states)).toEqual({ a: "ready" });
    expect(tracker.complete).toBe(false);
  });

  it("reads the legacy per-server updates and the completion summary (as 0.72–0.114 send them)", () => {
    const tracker = new McpStartupTracker();
    tracker.observe("codex/event/mcp_startup_update", legacyUpdate("ok", "starting"));
    tracker.observe("codex/event/mcp_startup_update", legacyUpdate("ok", "ready"));
    tracker.observe("codex/event/mcp_startup_update", legacyUpdate("bad", "starting"));
    tracker.observe("codex/event/mcp_startup_complete", {
      id: "",
      msg: {
        type: "mcp_startup_complete",
        ready: ["ok"],
        failed: [{ server: "bad", error: "x" }],
        cancelled: ["c"],
      },
    });
    expect(Object.fromEntries(tracker.states)).toEqual({ ok: "ready", bad: "failed", c: "cancelled" });
    expect(tracker.complete).toBe(true);
  });

  it("keeps a final state over a late `starting` and ignores other notifications", () => {
    const tracker = new McpStartupTracker();
    tracker.observe("mcpServer/startupStatus/updated", { name: "a", status: "ready" });
    tracker.observe("mcpServer/startupStatus/updated", { name: "a", status: "starting" });
    tracker.observe("codex/event/task_started", { msg: { type: "task_started" } });
    tracker.observe("mcpServer/startupStatus/updated", { name: "x", status: "somethingNew" });
    expect(Object.fromEntries(tracker.states)).toEqual({ a: "ready" });
  });

  it("settles on the legacy summary, or on quiet final states, else at the deadline", async () => {
    const legacy = new McpStartupTracker();
    setTimeout(() => legacy.observe("codex/event/mcp_startup_complete", { msg: { ready: [] } }), 30);
    expect(await legacy.settle({ legacy: true, awaited: [], quietMs: 0, deadlineMs: 2000 })).toBe(true);
    expect(
      await new McpStartupTracker().settle({ legacy: true, awaited: [], quietMs: 0, deadlineMs: 60 }),
    ).toBe(false);

    const v2 = new McpStartupTracker();
    v2.observe("mcpServer/startupStatus/updated", { name: "p", status: "starting" });
    setTimeout(() => v2.observe("mcpServer/startupStatus/updated", { name: "p", status: "ready" }), 40);
    expect(await v2.settle({ legacy: false, awaited: ["p"], quietMs: 50, deadlineMs: 2000 })).toBe(true);

    const stuck = new McpStartupTracker();
    stuck.observe("mcpServer/startupStatus/updated", { name: "p", status: "starting" });
    expect(await stuck.settle({ legacy: false, awaited: [], quietMs: 10, deadlineMs: 80 })).toBe(false);
    expect(
      await new McpStartupTracker().settle({ legacy: false, awaited: ["p"], quietMs: 10, deadlineMs: 80 }),
    ).toBe(false);
  });
  it("counts the quiet period from the settle call at the earliest, not from the tracker's creation", async () => {
    // a tracker made before a slow thread/start: its quiet period must not be used up before codex reports
    const tracker = new McpStartupTracker();
    await new Promise((resolve) => setTimeout(resolve, 120));
    const started = Date.now();
    const late = setTimeout(
      () => tracker.observe("mcpServer/startupStatus/updated", { name: "r", status: "starting" }),
      40,
    );
    const settled = tracker.settle({ legacy: false, awaited: [], quietMs: 100, deadlineMs: 400 });
    expect(await settled).toBe(false);
    clearTimeout(late);
    expect(tracker.states.get("r")).toBe("starting");
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });
});

describe("sessionFlagsLayerSetsMcpServers", () => {
  it("accepts the layer name as an object (0.80+) or a bare string (0.72)", () => {
    const config = { mcp_servers: {} };
    expect(sessionFlagsLayerSetsMcpServers([{ name: { type: "sessionFlags" }, config }])).toBe(true);
    expect(sessionFlagsLayerSetsMcpServers([{ name: "sessionFlags", source: "--config", config }])).toBe(
      true,
    );
    expect(sessionFlagsLayerSetsMcpServers([{ name: "user", config }])).toBe(false);
    expect(sessionFlagsLayerSetsMcpServers([{ name: "sessionFlags", config: {} }])).toBe(false);
    expect(sessionFlagsLayerSetsMcpServers(null)).toBe(false);
  });
});
