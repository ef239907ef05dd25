import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeMcpServers } from "../../src/codex/mcp/mcp-observation.js";
import { listConfiguredMcpServers } from "../../src/codex/mcp/mcp-inventory.js";
import type { McpInventoryEntry } from "../../src/codex/mcp/mcp-inventory-parse.js";
import { parseExplicitMcpPolicy, type McpServerSpec } from "../../src/mcp/mcp-policy.js";
import {
  resolveMcpLaunch as resolveLaunch,
  type McpLaunch,
  type ResolveMcpLaunchArgsOptions,
} from "../../src/codex/mcp/resolve-mcp-launch.js";
import { buildThreadStartParams } from "../../src/codex/protocol/protocol-requests.js";
import { startLoopbackMcpServer } from "../../src/mcp/loopback-mcp-server.js";
import { CONNECTED_OBSERVATION } from "../helpers/mcp-evidence.js";

// the resolvers take a policy parsed at the edge: each call here parses the literal first
type Policy = { servers: McpServerSpec[] };
const resolveMcpLaunch = async (policy: Policy, options: ResolveMcpLaunchArgsOptions) =>
  resolveLaunch(parseExplicitMcpPolicy(policy), options);
const resolveMcpLaunchArgs = async (policy: Policy, options: ResolveMcpLaunchArgsOptions) =>
  resolveLaunchArgs(parseExplicitMcpPolicy(policy), options);

import { caps, codex, createMcpWorld, HOSTILE_NAMES, type McpWorld } from "./mcp-real-setup.js";
import { resolveMcpLaunchArgs as resolveLaunchArgs } from "../../src/internal/test-hooks.js";

// The real codex under test, offline: a throw-away CODEX_HOME, no model turn. The thread is started exactly as the
// turn runner starts it (full access, ephemeral) in a plain directory.
describe("MCP policy against the real codex app-server", () => {
  let world: McpWorld;
  let inventory: McpInventoryEntry[];
  const configured = ["stdio1", "http1", "off1", ...HOSTILE_NAMES];

  beforeAll(async () => {
    world = await createMcpWorld();
  });
  afterAll(async () => {
    await world?.cleanup();
  });

  /**
   * How the policy reaches codex: launch arguments alone where launch overrides reach a thread's servers;
   * before (0.72) those are refused with MCP_POLICY_UNENFORCEABLE, and the policy goes into the thread's config
   * as well (`resolveMcpLaunch`).
   */
  async function launchFor(policy: { servers: McpServerSpec[] }): Promise<McpLaunch> {
    const options = { codex, cwd: world.plain, env: world.env };
    if (caps.launchOverridesReachThreads)
      return { appServerArgs: await resolveMcpLaunchArgs(policy, options), threadConfig: null };
    await expect(resolveMcpLaunchArgs(policy, options)).rejects.toMatchObject({
      code: "MCP_POLICY_UNENFORCEABLE",
    });
    return resolveMcpLaunch(policy, options);
  }

  const observe = (policy: "empty" | "loopback", requested: string[], launch: McpLaunch) =>
    observeMcpServers(
      { codex, env: world.env },
      {
        policy,
        requested,
        appServerArgs: launch.appServerArgs,
        ...(launch.threadConfig ? { threadConfig: launch.threadConfig } : {}),
        inventory,
        threadStartParams: buildThreadStartParams({ prompt: "", cwd: world.plain }) as Record<
          string,
          unknown
        > & { cwd: string },
      },
    );

  it("lists the configured inventory (hostile names included) without touching config.toml", async () => {
    const before = await world.readConfig();
    inventory = await listConfiguredMcpServers({ codex, cwd: world.plain, env: world.env });
    expect(inventory.map((entry) => entry.name).sort()).toEqual([...configured].sort());
    expect(inventory.find((entry) => entry.name === "off1")?.enabled).toBe(false);
    expect(inventory.find((entry) => entry.name === "http1")?.transport.type).toBe("streamable_http");
    expect(await world.readConfig()).toBe(before);
  });

  it("empty policy: every configured server is disabled in the effective config and never started", async () => {
    const launch = await launchFor({ servers: [] });
    expect(launch.appServerArgs.slice(0, 3)).toEqual(["-c", "features.plugins=false", "-c"]);
    const { run, codexHome } = await observe("empty", [], launch);
    expect(run.error).toBeNull();
    // `initialize` names the home only with initializeCodexHome (0.117+)
    expect(codexHome).toBe(caps.initializeCodexHome ? world.home : null);
    expect(run.overrideLayerSeen).toBe(true);
    for (const name of configured) {
      const server = run.servers.find((item) => item.name === name);
      expect(server, name).toBeDefined();
      expect(server?.configEnabled, name).toBe(false);
      expect(server?.startup, name).toBeNull();
      expect(
        server?.runtimeStatus === null || server?.runtimeStatus === "disabled",
        `${JSON.stringify(name)}: ${server?.runtimeStatus}`,
      ).toBe(true);
    }
    expect(run.servers.filter((server) => server.verdict !== "ok")).toEqual([]);
    expect(run.ok).toBe(true);
    expect(world.launchedMarkers()).toEqual([]);
  });

  it("loopback policy: only the requested server is enabled, and it connects", async () => {
    const mcp = await startLoopbackMcpServer();
    try {
      const launch = await launchFor({
        servers: [{ name: "probe", url: mcp.url, startupTimeoutSec: 20, toolTimeoutSec: 30 }],
      });
      const { run } = await observe("loopback", ["probe"], launch);
      expect(run.error).toBeNull();
      const probe = run.servers.find((server) => server.name === "probe");
      expect(probe).toMatchObject({
        requested: true,
        configEnabled: true,
        ...CONNECTED_OBSERVATION,
        verdict: "ok",
      });
      for (const name of configured)
        expect(run.servers.find((item) => item.name === name)?.verdict, name).toBe("ok");
      expect(run.ok).toBe(true);
      expect(mcp.sessionCount).toBeGreaterThanOrEqual(1);
      expect(world.launchedMarkers()).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it("control: `-c mcp_servers={}` clears nothing (deep merge), and the observation sees the leak", async () => {
    const { run } = await observe("empty", [], {
      appServerArgs: ["-c", "features.plugins=false", "-c", "mcp_servers={}"],
      threadConfig: null,
    });
    expect(run.error).toBeNull();
    const stdio = run.servers.find((server) => server.name === "stdio1");
    expect(stdio?.configEnabled).toBe(true);
    expect(stdio?.verdict).toBe("leak");
    expect(run.ok).toBe(false);
    expect(world.launchedMarkers()).toContain("stdio1");
    // the app-server's tree was terminated, the launched MCP server with it
    expect(world.liveMarkerPids()).toEqual([]);
  });
});
