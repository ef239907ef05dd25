import { describe, expect, it } from "vitest";
import type { CodexLaunch } from "../../../src/codex/launch/codex-launch.js";
import { observeMcpServers } from "../../../src/codex/mcp/mcp-observation.js";
import type { FakeScript } from "../../../src/testkit/fake-script.js";
import { FAKE_THREAD_ID } from "../../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../../src/testkit/in-memory-app-server.js";

// What each codex generation reports about MCP startup, played by the in-memory fake: the observation must
// judge from it (legacy events up to 0.114, startup notifications 0.117–0.149), never from a missing
// runtimeStatus, and say so when the report is incomplete.

const codex: CodexLaunch = { type: "native", command: "/fake/codex" };
const USER = {
  name: "user1",
  enabled: true,
  disabledReason: null,
  transport: { type: "stdio", command: "u" },
} as const;

function script(version: string, afterThreadStart: Array<Record<string, unknown>>): FakeScript {
  return {
    replies: {
      initialize: { result: { userAgent: `codex_cli_rs/${version} (fake)` } },
      "config/read": {
        result: {
          config: {
            mcp_servers: {
              user1: { enabled: false, command: "u" },
              p: { enabled: true, url: "http://127.0.0.1:1/mcp" },
            },
          },
          layers: [{ name: "sessionFlags", config: { mcp_servers: {} } }],
        },
      },
    },
    alongReply: { "thread/start": { parts: afterThreadStart.map((send) => ({ send })) } },
  };
}

const legacy = (type: string, msg: Record<string, unknown>) => ({
  method: `codex/event/${type}`,
  params: { id: "", msg: { type, ...msg }, conversationId: FAKE_THREAD_ID },
});
const startup = (name: string, status: string) => ({
  method: "mcpServer/startupStatus/updated",
  params: { name, status, error: null },
});

async function observe(fake: InMemoryAppServer, requested: string[], statusTimeoutMs = 300) {
  return observeMcpServers(
    { codex, launcher: fake.launcher, statusTimeoutMs, startupQuietMs: 50, requestTimeoutMs: 5_000 },
    {
      policy: requested.length ? "loopback" : "empty",
      requested,
      appServerArgs: ["-c", "mcp_servers={}"],
      inventory: [USER],
      threadStartParams: { cwd: "/repo" },
      threadConfig: { mcp_servers: { user1: { enabled: false, command: "u" } } },
    },
  );
}

describe("observeMcpServers by codex generation", () => {
  it("0.72: legacy startup events show a server the config disables was started (a leak), and the policy goes into the thread config", async () => {
    const fake = new InMemoryAppServer(
      script("0.72.0", [
        legacy("mcp_startup_update", { server: "user1", status: { state: "starting" } }),
        legacy("mcp_startup_update", { server: "user1", status: { state: "ready" } }),
        legacy("mcp_startup_complete", { ready: ["user1"], failed: [], cancelled: [] }),
      ]),
    );
    const { run } = await observe(fake, []);
    expect(run).toMatchObject({
      evidence: "legacyStartupEvents",
      unproven: null,
      overrideLayerSeen: true,
      ok: false,
    });
    expect(run.servers.find((s) => s.name === "user1")).toMatchObject({
      configEnabled: false,
      startup: "ready",
      verdict: "leak",
    });
    const threadStart = fake.peer.received.find((frame) => frame.method === "thread/start");
    expect(threadStart?.params).toMatchObject({ config: { mcp_servers: { user1: { enabled: false } } } });
    expect(fake.peer.received.some((frame) => String(frame.method).startsWith("mcpServer"))).toBe(false);
  });

  it("0.100: a clean legacy summary proves the empty policy", async () => {
    const fake = new InMemoryAppServer(
      script("0.100.0", [legacy("mcp_startup_complete", { ready: [], failed: [], cancelled: [] })]),
    );
    const { run } = await observe(fake, []);
    expect(run.servers.find((s) => s.name === "user1")?.verdict).toBe("ok");
    expect(run.ok).toBe(false); // p is enabled in the effective config: a leak
    expect(run.servers.find((s) => s.name === "p")?.verdict).toBe("leak");
    // 0.80+ take the launch override: no thread config
    const threadStart = fake.peer.received.find((frame) => frame.method === "thread/start");
    expect(threadStart?.params).not.toHaveProperty("config");
  });

  it("0.100: without the legacy summary the run is unproven, not failed", async () => {
    const fake = new InMemoryAppServer(script("0.100.0", []));
    const { run } = await observe(fake, ["p"]);
    expect(run.unproven).toMatch(
      /^codex 0\.100\.0 reports MCP startup only through codex\/event\/mcp_startup_complete/,
    );
    expect(run.ok).toBe(false);
  });

  it("0.130: startup notifications prove the requested server ready; the status list is not asked", async () => {
    const fake = new InMemoryAppServer(script("0.130.0", [startup("p", "starting"), startup("p", "ready")]));
    const { run } = await observe(fake, ["p"]);
    expect(run).toMatchObject({ evidence: "startupNotifications", unproven: null });
    expect(run.servers.find((s) => s.name === "p")).toMatchObject({ startup: "ready", verdict: "ok" });
    expect(run.servers.find((s) => s.name === "user1")?.verdict).toBe("ok");
    expect(run.ok).toBe(true);
    expect(fake.peer.received.some((frame) => frame.method === "mcpServerStatus/list")).toBe(false);
  });

  it("0.130: a requested server the effective config lacks (the override did not reach codex) is missing after the quiet period, not the deadline", async () => {
    const fake = new InMemoryAppServer(script("0.130.0", [startup("p", "starting"), startup("p", "failed")]));
    const started = Date.now();
    const { run } = await observe(fake, ["absent"], 20_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run).toMatchObject({ evidence: "startupNotifications", unproven: null, ok: false });
    expect(run.servers.find((s) => s.name === "absent")).toMatchObject({
      requested: true,
      configEnabled: null,
      startup: null,
      verdict: "missing",
    });
  });
});
