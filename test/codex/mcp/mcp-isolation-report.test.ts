import { describe, expect, it } from "vitest";
import {
  formatIsolationReport,
  judgeServer,
  type McpIsolationReport,
  type McpServerObservation,
} from "../../../src/codex/mcp/mcp-isolation-report.js";

const base = {
  name: "s",
  requested: false,
  configured: true,
  configEnabled: false,
  runtimeStatus: "disabled",
  startup: null,
};

describe("judgeServer", () => {
  it.each<[string, Partial<McpServerObservation>, McpServerObservation["verdict"]]>([
    ["disabled everywhere", {}, "ok"],
    ["not in the status list", { runtimeStatus: null }, "ok"],
    [
      "absent from the effective config and the status list",
      { configEnabled: null, runtimeStatus: null },
      "ok",
    ],
    ["disabled and not started", { runtimeStatus: "notStarted" }, "ok"],
    ["enabled in the effective config", { configEnabled: true }, "leak"],
    ["connected", { runtimeStatus: "connected" }, "leak"],
    ["failed to start (so it was launched)", { runtimeStatus: "failed" }, "leak"],
    ["starting", { runtimeStatus: "starting" }, "leak"],
    ["an unknown status", { runtimeStatus: "somethingNew" }, "leak"],
    ["not started but not disabled either", { configEnabled: null, runtimeStatus: "notStarted" }, "leak"],
    ["a startup notification, though listed as disabled", { startup: "starting" }, "leak"],
    ["requested and connected", { requested: true, configEnabled: true, runtimeStatus: "connected" }, "ok"],
    ["requested but failed", { requested: true, configEnabled: true, runtimeStatus: "failed" }, "missing"],
    [
      "requested but disabled",
      { requested: true, configEnabled: false, runtimeStatus: "disabled" },
      "missing",
    ],
  ])("%s", (_what, change, verdict) => {
    expect(judgeServer({ ...base, ...change })).toBe(verdict);
  });
});

function observation(change: Partial<McpServerObservation>): McpServerObservation {
  const merged = { ...base, ...change };
  return { ...merged, verdict: judgeServer(merged) };
}

const report: McpIsolationReport = {
  ok: false,
  codex: { command: "/usr/bin/codex", prefixArgs: [] },
  cwd: "/work/repo",
  codexHome: "/home/u/.codex",
  userAgent: "rennet/0.171.0",
  inventory: [
    { name: "files", enabled: true, transport: "stdio" },
    { name: 'we"ird\u0001', enabled: false, transport: "streamable_http" },
    { name: "del\u007f\u0085", enabled: true, transport: "stdio" },
  ],
  inventoryError: null,
  runs: [
    {
      policy: "empty",
      requested: [],
      appServerArgs: ["-c", "features.plugins=false", "-c", "mcp_servers={}"],
      overrideLayerSeen: true,
      error: null,
      servers: [
        observation({ name: "files" }),
        observation({ name: 'we"ird\u0001', runtimeStatus: "connected" }),
      ],
      ok: false,
    },
    {
      policy: "loopback",
      requested: ["probe"],
      appServerArgs: [],
      overrideLayerSeen: false,
      error: { code: "REQUEST_TIMEOUT", message: "thread/start got no response within 30000 ms" },
      servers: [],
      ok: false,
    },
  ],
};

describe("formatIsolationReport", () => {
  it("prints a row per server with each policy's state and verdict, then the errors and the result", () => {
    const text = formatIsolationReport(report, { color: false });
    const lines = text.split("\n");
    expect(lines.find((line) => line.startsWith("server"))).toMatch(
      /^server\s+configured\s+empty policy\s+loopback policy\s*$/,
    );
    expect(lines.find((line) => line.startsWith("files"))).toMatch(
      /^files\s+stdio, on\s+ok {2}off · disabled\s+-\s*$/,
    );
    // a name with a quote or control character is shown JSON-quoted, never raw
    expect(text).toContain('"we\\"ird\\u0001"');
    expect(text).toContain('"del\\u007f\\u0085"');
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001a\u001c-\u001f\u007f-\u009f]/);
    expect(text).toMatch(/LEAK {2}off · connected/);
    expect(text).toContain("loopback policy could not be checked (REQUEST_TIMEOUT)");
    expect(text).toContain("FAILED");
    expect(text).not.toContain("\u001b[");
  });

  it("colours only when asked", () => {
    expect(formatIsolationReport(report, { color: true })).toContain("\u001b[");
  });

  it("says OK for a passing report, and the report survives JSON", () => {
    const passing: McpIsolationReport = {
      ...report,
      ok: true,
      runs: [{ ...report.runs[0]!, servers: [observation({ name: "files" })], ok: true }],
    };
    expect(formatIsolationReport(passing, { color: false })).toContain("OK: under each policy");
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it("shows an inventory failure", () => {
    const failed: McpIsolationReport = {
      ...report,
      inventory: [],
      runs: [],
      inventoryError: { code: "MCP_INVENTORY_FAILED", message: "codex mcp list --json failed (exit 1)" },
    };
    const text = formatIsolationReport(failed, { color: false });
    expect(text).toContain("Could not read the configured MCP servers (MCP_INVENTORY_FAILED)");
    expect(text).toContain("(no MCP servers configured or observed)");
  });
});
