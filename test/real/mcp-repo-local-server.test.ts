import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeMcpServers } from "../../src/codex/mcp/mcp-observation.js";
import { inventoryTrustDirectories, listConfiguredMcpServers } from "../../src/codex/mcp/mcp-inventory.js";
import { parseMcpInventory, type McpInventoryEntry } from "../../src/codex/mcp/mcp-inventory-parse.js";
import { buildMcpLaunchArgs } from "../../src/codex/mcp/mcp-launch-args.js";
import { parseExplicitMcpPolicy } from "../../src/mcp/mcp-policy.js";

const EMPTY = parseExplicitMcpPolicy({ servers: [] });
import { trustedProjectsConfig } from "../../src/codex/mcp/project-trust-overrides.js";
import { buildThreadStartParams } from "../../src/codex/protocol/protocol-requests.js";
import { caps, codex, createMcpWorld, type McpWorld } from "./mcp-real-setup.js";
import { buildMcpInventoryArgs } from "../../src/internal/test-hooks.js";

const run = promisify(execFile);

// A repository's own `.codex/config.toml` declares `repolocal`, a stdio server that records its pid if it is
// ever launched. The user's config does not trust the repository; `thread/start` with full access in a git
// cwd trusts it on the spot (and writes that into config.toml), which activates the repository's layer.
// codex without projectConfigLayers (0.72) never reads a repository's .codex/config.toml: there is no
// repository server to keep out (the isolation control's test shows it is never launched)
describe.skipIf(!caps.projectConfigLayers)(
  `a repository's own MCP server under an explicit policy (real codex)${
    caps.projectConfigLayers
      ? ""
      : ` [skipped: codex ${caps.version} lacks the projectConfigLayers capability]`
  }`,
  () => {
    let world: McpWorld;
    let cwd: string;
    /** What a plain listing returned while the repository was untrusted (the inventory a naive policy would use). */
    let untrustedListing: McpInventoryEntry[] = [];

    beforeAll(async () => {
      world = await createMcpWorld();
      cwd = path.join(world.repo, "sub");
    });
    afterAll(async () => {
      await world?.cleanup();
    });

    const observe = (
      appServerArgs: string[],
      inventory: McpInventoryEntry[],
      threadStartParams: Record<string, unknown> & { cwd: string },
    ) =>
      observeMcpServers(
        { codex, env: world.env },
        { policy: "empty", requested: [], appServerArgs, inventory, threadStartParams },
      );

    it("finding: a plain `codex mcp list --json` in the untrusted repository omits the repository's server", async () => {
      const { stdout } = await run(codex.command, buildMcpInventoryArgs([]), { cwd, env: world.env });
      untrustedListing = parseMcpInventory(stdout);
      // before projectLayersNeedTrust (0.90) the repository's layer counts untrusted: its server is listed
      if (caps.projectLayersNeedTrust)
        expect(untrustedListing.map((entry) => entry.name)).not.toContain("repolocal");
      else expect(untrustedListing.map((entry) => entry.name)).toContain("repolocal");
      expect(untrustedListing.map((entry) => entry.name)).toContain("stdio1");
    });

    it("the inventory of a call that trusts the project (every directory up from the cwd trusted) includes it, and config.toml is untouched", async () => {
      const before = await world.readConfig();
      const inventory = await listConfiguredMcpServers({ codex, cwd, env: world.env, trustProject: true });
      expect(inventory.find((entry) => entry.name === "repolocal")?.transport).toEqual({
        type: "stdio",
        command: "sh",
      });
      expect(await world.readConfig()).toBe(before);
    });

    it("the explicit policy never launches it: trusted by thread/start itself, already trusted, or trust stated", async () => {
      const inventory = await listConfiguredMcpServers({ codex, cwd, env: world.env, trustProject: true });
      const args = buildMcpLaunchArgs(EMPTY, inventory);
      expect(args[3]).toContain('repolocal = { enabled = false, command = "sh" }');
      expect(await world.readConfig()).not.toContain("trust_level");

      // as the turn runner starts a thread: full access in the untrusted repository, which codex now trusts
      const autoTrusted = await observe(args, inventory, {
        ...buildThreadStartParams({ prompt: "", cwd }),
        cwd,
      });
      expect(autoTrusted.run.error).toBeNull();
      // before trustPersistedAtThreadStart (0.120) codex persists no trust, so the repository stays untrusted
      if (caps.trustPersistedAtThreadStart) expect(await world.readConfig()).toContain("trust_level");
      else expect(await world.readConfig()).not.toContain("trust_level");
      expect(autoTrusted.run.servers.find((server) => server.name === "repolocal")).toMatchObject({
        startup: null,
        verdict: "ok",
      });
      expect(autoTrusted.run.ok).toBe(true);

      // the same, now that the trust is persisted in config.toml (the repository's layer is active from the start)
      const persisted = await observe(args, inventory, {
        ...buildThreadStartParams({ prompt: "", cwd }),
        cwd,
      });
      expect(persisted.run.error).toBeNull();
      expect(persisted.run.servers.find((server) => server.name === "repolocal")).toMatchObject({
        configEnabled: false,
        startup: null,
        verdict: "ok",
      });
      expect(persisted.run.ok).toBe(true);

      // trust stated in the thread's config (what the isolation control does)
      const trust = trustedProjectsConfig(await inventoryTrustDirectories(cwd));
      const stated = await observe(args, inventory, {
        ...buildThreadStartParams({ prompt: "", cwd, threadConfig: { projects: trust } }),
        cwd,
      });
      expect(stated.run.error).toBeNull();
      expect(stated.run.servers.find((server) => server.name === "repolocal")?.verdict).toBe("ok");
      expect(stated.run.ok).toBe(true);

      expect(world.launchedMarkers()).toEqual([]);
    });

    it("control: placeholders for the user's servers only → the trusted repository's server is launched", async () => {
      const userOnly = untrustedListing.filter((entry) => entry.name !== "repolocal");
      expect(userOnly.length).toBeGreaterThan(0);
      // the repository is trusted: persisted by the thread/start above, or (before trustPersistedAtThreadStart)
      // stated in the thread's config
      const trust = caps.trustPersistedAtThreadStart
        ? undefined
        : { projects: trustedProjectsConfig(await inventoryTrustDirectories(cwd)) };
      const { run: observed } = await observe(buildMcpLaunchArgs(EMPTY, userOnly), userOnly, {
        ...buildThreadStartParams({ prompt: "", cwd, ...(trust ? { threadConfig: trust } : {}) }),
        cwd,
      });
      expect(world.launchedMarkers()).toEqual(["repolocal"]);
      expect(observed.servers.find((server) => server.name === "repolocal")?.verdict).toBe("leak");
      expect(observed.ok).toBe(false);
      expect(world.liveMarkerPids()).toEqual([]);
    });
  },
);
