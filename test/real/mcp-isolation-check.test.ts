import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMcpIsolationCheck } from "../../src/codex/mcp/mcp-isolation-check.js";
import { formatIsolationReport } from "../../src/codex/mcp/format-isolation-report.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import { spawnStdioChild } from "../../src/process/stdio-launcher.js";
import { CONNECTED_OBSERVATION } from "../helpers/mcp-evidence.js";

import { caps, codex, createMcpWorld, HOSTILE_NAMES, type McpWorld } from "./mcp-real-setup.js";

// The isolation control end to end against the real codex, in a git repository that declares its own server.
describe("runMcpIsolationCheck (real codex)", () => {
  let world: McpWorld;
  let cwd: string;

  beforeAll(async () => {
    world = await createMcpWorld();
    cwd = path.join(world.repo, "sub");
  });
  afterAll(async () => {
    await world?.cleanup();
  });

  it("is ok: under both policies only the requested server is enabled, nothing configured starts, config.toml untouched", async () => {
    const before = await world.readConfig();
    const report = await runMcpIsolationCheck({ codex, env: world.env, cwd });
    const table = formatIsolationReport(report, { color: false });
    expect(report.ok, table).toBe(true);
    expect(report.inventoryError).toBeNull();
    // `initialize` names the home only with initializeCodexHome (0.117+)
    expect(report.codexHome).toBe(caps.initializeCodexHome ? world.home : null);
    // without projectConfigLayers (0.72) the repository's own server does not exist for codex
    const repoServers = caps.projectConfigLayers ? ["repolocal"] : [];
    expect(report.inventory.map((entry) => entry.name).sort()).toEqual(
      ["stdio1", "http1", "off1", ...repoServers, ...HOSTILE_NAMES].sort(),
    );
    expect(report.runs.map((run) => run.policy)).toEqual(["empty", "loopback"]);
    const [empty, loopback] = report.runs;
    expect(empty?.requested).toEqual([]);
    expect(loopback?.requested).toEqual(["rennet-isolation-probe"]);
    expect(loopback?.servers.find((server) => server.name === "rennet-isolation-probe")).toMatchObject({
      ...CONNECTED_OBSERVATION,
      verdict: "ok",
    });
    for (const run of report.runs) {
      expect(run.overrideLayerSeen).toBe(true);
      // the features that start servers from outside mcp_servers are off in the effective config
      expect(run.features).toEqual([
        { name: "plugins", enabled: false },
        { name: "skill_mcp_dependency_install", enabled: false },
      ]);
      for (const entry of report.inventory) {
        expect(
          run.servers.find((server) => server.name === entry.name)?.configEnabled,
          `${run.policy} ${JSON.stringify(entry.name)}`,
        ).toBe(false);
      }
    }
    expect(world.launchedMarkers()).toEqual([]);
    expect(await world.readConfig()).toBe(before);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    expect(table).toContain("OK:");
  });

  it("is not ok when the override does not reach codex (a launcher that drops `-c mcp_servers=…`)", async () => {
    const leaky: Launcher = (spec) =>
      spawnStdioChild({
        ...spec,
        args: spec.args.filter(
          (arg, i, all) => !arg.startsWith("mcp_servers=") && all[i + 1]?.startsWith("mcp_servers=") !== true,
        ),
      });
    const report = await runMcpIsolationCheck({ codex, env: world.env, cwd, launcher: leaky });
    expect(report.ok).toBe(false);
    const empty = report.runs[0];
    expect(empty?.overrideLayerSeen).toBe(false);
    expect(empty?.servers.find((server) => server.name === "stdio1")?.verdict).toBe("leak");
    expect(empty?.servers.find((server) => server.name === "repolocal")?.verdict).toBe(
      caps.projectConfigLayers ? "leak" : undefined,
    );
    expect(formatIsolationReport(report, { color: false })).toContain("FAILED");
    // where launch overrides miss threads (0.72) the control also sends the policy as thread config, which the
    // leaky launcher does not drop: the verdict still fails (the effective config enables stdio1), nothing starts
    if (caps.launchOverridesReachThreads) expect(world.launchedMarkers()).toContain("stdio1");
    else expect(world.launchedMarkers()).toEqual([]);
    expect(world.liveMarkerPids()).toEqual([]);
  });
});
