import { describe, expect, it } from "vitest";
import { formatIsolationReport } from "../../../src/codex/mcp/format-isolation-report.js";
import {
  judgeServer,
  reportVerdict,
  type McpIsolationPolicyRun,
  type McpIsolationReport,
  type McpServerObservation,
} from "../../../src/codex/mcp/mcp-isolation-report.js";

const base = {
  name: "s",
  requested: false,
  configured: true,
  configEnabled: false,
  runtimeStatus: "disabled",
  tools: null,
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

describe("judgeServer without runtimeStatus (startup reports)", () => {
  const quiet = { ...base, runtimeStatus: null };
  it.each<[string, Partial<McpServerObservation>, McpServerObservation["verdict"]]>([
    ["disabled and silent", {}, "ok"],
    ["absent everywhere", { configEnabled: null }, "ok"],
    ["enabled in the effective config", { configEnabled: true }, "leak"],
    ["reported starting although disabled (0.72 ignores launch overrides)", { startup: "starting" }, "leak"],
    ["reported failed: it was launched", { startup: "failed" }, "leak"],
    ["tools in the thread's status list", { tools: 2 }, "leak"],
    ["requested and ready", { requested: true, configEnabled: true, startup: "ready" }, "ok"],
    ["requested, tools listed", { requested: true, configEnabled: true, tools: 1 }, "ok"],
    ["requested but failed", { requested: true, configEnabled: true, startup: "failed" }, "missing"],
    [
      "requested but still starting",
      { requested: true, configEnabled: true, startup: "starting" },
      "missing",
    ],
    ["requested but silent", { requested: true, configEnabled: true }, "missing"],
  ])("%s", (_what, change, verdict) => {
    for (const evidence of ["startupNotifications", "legacyStartupEvents"] as const) {
      expect(judgeServer({ ...quiet, ...change }, evidence)).toBe(verdict);
    }
  });
});

describe("reportVerdict", () => {
  const run = (change: Partial<McpIsolationPolicyRun>): McpIsolationPolicyRun => ({
    policy: "empty",
    requested: [],
    appServerArgs: [],
    overrideLayerSeen: true,
    features: [
      { name: "plugins", enabled: false },
      { name: "skill_mcp_dependency_install", enabled: null },
    ],
    error: null,
    servers: [observation({})],
    evidence: "legacyStartupEvents",
    unproven: null,
    ok: true,
    ...change,
  });
  const of = (runs: McpIsolationPolicyRun[], inventoryError: McpIsolationReport["inventoryError"] = null) =>
    reportVerdict({ ...report, runs, inventoryError });

  it("is ok only for two clean, proven runs", () => {
    expect(of([run({}), run({ policy: "loopback" })])).toBe("ok");
    expect(of([run({})])).toBe("failed");
  });
  it("is unproven when nothing failed but a run cannot prove its point", () => {
    expect(of([run({}), run({ policy: "loopback", unproven: "no mcp_startup_complete" })])).toBe("unproven");
  });
  it("a failure wins over an unproven run", () => {
    const leak = run({ servers: [observation({ configEnabled: true })] });
    expect(of([leak, run({ unproven: "x" })])).toBe("failed");
    expect(of([run({ error: { code: "E", message: "m" } }), run({ unproven: "x" })])).toBe("failed");
    expect(of([run({ overrideLayerSeen: false }), run({ unproven: "x" })])).toBe("failed");
    const featureOn = run({ features: [{ name: "skill_mcp_dependency_install", enabled: true }] });
    expect(of([featureOn, run({ policy: "loopback" })])).toBe("failed");
    expect(of([], { code: "MCP_INVENTORY_FAILED", message: "m" })).toBe("failed");
  });
});

function observation(change: Partial<McpServerObservation>): McpServerObservation {
  const merged = { ...base, ...change };
  return { ...merged, verdict: judgeServer(merged) };
}

const report: McpIsolationReport = {
  ok: false,
  codex: "/usr/bin/codex",
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
      features: [
        { name: "plugins", enabled: false },
        { name: "skill_mcp_dependency_install", enabled: true },
      ],
      error: null,
      servers: [
        observation({ name: "files" }),
        observation({ name: 'we"ird\u0001', runtimeStatus: "connected" }),
      ],
      evidence: "runtimeStatus",
      unproven: null,
      ok: false,
    },
    {
      policy: "loopback",
      requested: ["probe"],
      appServerArgs: [],
      overrideLayerSeen: false,
      features: [],
      error: { code: "REQUEST_TIMEOUT", message: "thread/start got no response within 30000 ms" },
      servers: [],
      evidence: null,
      unproven: null,
      ok: false,
    },
  ],
  verdict: "failed",
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
    expect(text).toContain(
      "empty policy: feature skill_mcp_dependency_install is on (it starts MCP servers)",
    );
    expect(text).not.toContain("feature plugins");
    expect(text).toContain("FAILED");
    expect(text).not.toContain("\u001b[");
  });

  it("colours only when asked", () => {
    expect(formatIsolationReport(report, { color: true })).toContain("\u001b[");
    const format = formatIsolationReport as (report: McpIsolationReport) => string;
    expect(format(report)).toBe(formatIsolationReport(report, { color: false }));
  });

  it("says OK for a passing report, and the report survives JSON", () => {
    const passing: McpIsolationReport = {
      ...report,
      ok: true,
      verdict: "ok",
      runs: [{ ...report.runs[0]!, servers: [observation({ name: "files" })], ok: true }],
    };
    expect(formatIsolationReport(passing, { color: false })).toContain("OK: under each policy");
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it("says UNPROVEN with the reason and what the verdicts rest on", () => {
    const unproven: McpIsolationReport = {
      ...report,
      ok: false,
      verdict: "unproven",
      runs: [
        {
          ...report.runs[0]!,
          servers: [observation({ name: "files", runtimeStatus: null })],
          evidence: "legacyStartupEvents",
          unproven:
            "codex 0.100.0 reports MCP startup only through codex/event/mcp_startup_complete, which did not arrive",
        },
      ],
    };
    const text = formatIsolationReport(unproven, { color: false });
    expect(text).toContain("empty policy judged from codex/event/mcp_startup_update");
    expect(text).toContain("empty policy cannot be proven: codex 0.100.0 reports MCP startup only");
    expect(text).toContain("UNPROVEN");
    expect(text).not.toContain("FAILED");
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

  it("escapes what codex said (its user agent, errors, server names) before it reaches the terminal", () => {
    const hostile = "\u001b]0;TITLE\u0007\u001b[2J\u009b\u202e";
    const said: McpIsolationReport = {
      ...report,
      userAgent: `codex ${hostile}`,
      inventory: [{ name: `srv${hostile}`, enabled: true, transport: "stdio" }],
      inventoryError: { code: "MCP_INVENTORY_FAILED", message: `failed ${hostile}` },
      runs: [
        {
          ...report.runs[1]!,
          error: { code: "REQUEST_TIMEOUT", message: `late ${hostile}` },
          unproven: hostile,
        },
      ],
    };
    const text = formatIsolationReport(said, { color: false });
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/u);
    expect(text).toContain("agent: codex \\u001b]0;TITLE");
  });

  it("quotes a server name with an invisible character, so that it cannot pass for another server", () => {
    const lookalike: McpIsolationReport = {
      ...report,
      inventory: [
        { name: "files", enabled: true, transport: "stdio" },
        { name: "files\u200b", enabled: true, transport: "stdio" },
        { name: "fi\u00adles\u{e0041}", enabled: true, transport: "stdio" },
      ],
    };
    const text = formatIsolationReport(lookalike, { color: false });
    expect(text).toContain('"files\\u200b"');
    expect(text).toContain('"fi\\u00adles\\udb40\\udc41"');
  });
});
