import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { CodexCallOptions } from "../../src/codex/client/call-options.js";
import type { HarnessEvent, SessionStartedEvent, TerminalEvent } from "../../src/harness/events.js";
import { createCodexHome } from "../../src/testkit/codex-home.js";
import { startLoopbackModelServer } from "../../src/testkit/loopback-model-server.js";
import { command, text } from "../../src/testkit/model-scenarios.js";
import { TEST_CODEX_BIN, testCodexVersion } from "../helpers/codex-bin.js";
import { git } from "../helpers/git.js";
import {
  configToml,
  createHostileWorld,
  liveRepoPids,
  ranCommands,
  REPO_MODEL,
  REPO_TEXT,
  userRequestText,
  type HostileWorld,
} from "./hostile-repo-setup.js";

// A repository the user never trusted must not run anything through its own Codex config, nor send the
// model's requests anywhere but the user's provider (see hostile-repo-setup.ts for what the repository
// declares). The controls trust the project and show the repository's MCP server does start, so the
// assertions of the untrusted turns can fail.

const caps = codexCapabilities(testCodexVersion());
/** codex 0.80–0.87 load a repository's .codex/config.toml whatever the trust: Rennet refuses the turn there. */
const layerLoadedRegardless = caps.projectConfigLayers && !caps.projectLayersNeedTrust;
const noLayer = ` [skipped: codex ${caps.version} lacks the projectConfigLayers capability]`;

let world: HostileWorld | null = null;
afterEach(async () => {
  await world?.cleanup();
  world = null;
});

/** One turn through the public client in the world's throw-away home, read to its end. */
async function turn(
  w: HostileWorld,
  options: Omit<CodexCallOptions, "prompt">,
): Promise<{ started: SessionStartedEvent | undefined; terminal: TerminalEvent }> {
  const client = createCodex({ codex: TEST_CODEX_BIN, env: w.env, reapOrphans: false });
  const session = client.runStreamed({ prompt: "hello", ...options });
  const events: HarnessEvent[] = [];
  for await (const event of session.events) events.push(event);
  const started = events.find((event): event is SessionStartedEvent => event.type === "session.started");
  return { started, terminal: await session.result };
}

async function clearMarkers(w: HostileWorld): Promise<void> {
  for (const file of await readdir(w.markers)) await rm(path.join(w.markers, file));
}

/** What an untrusted turn must show: refused (0.80–0.87) or completed without the repository's layer. */
function expectRepositoryKeptOut(w: HostileWorld, terminal: TerminalEvent): void {
  if (layerLoadedRegardless) {
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "spawn", code: "UNTRUSTED_PROJECT_CONFIG" });
    expect(terminal.failure?.message).toContain(path.join(w.repo, ".codex", "config.toml"));
    expect(w.userModel.requests).toHaveLength(0);
  } else {
    expect(terminal.outcome).toBe("completed");
    const requests = w.userModel.responsesRequests();
    expect(requests.length).toBeGreaterThan(0);
    expect((requests[0]?.body as { model?: unknown }).model).toBe("mock-model");
    const sent = userRequestText(w);
    expect(sent).not.toContain(REPO_TEXT.developerInstructions);
    expect(sent).not.toContain(REPO_TEXT.instructionsFile);
    // AGENTS.md is prompt input, not configuration: codex before 0.150 sends it whatever the trust
    if (caps.agentsMdNeedsTrust) expect(sent).not.toContain(REPO_TEXT.agentsMd);
    else expect(sent).toContain(REPO_TEXT.agentsMd);
  }
  expect(ranCommands(w)).toEqual([]);
  expect(w.repoModel.requests).toHaveLength(0);
}

describe("real codex: a hostile repository the user never trusted", () => {
  it.each(["the repository root", "a subdirectory"])(
    "by default (cwd: %s) no repository command runs and no request goes to the repository's provider",
    async (where) => {
      world = await createHostileWorld();
      const before = await configToml(world);
      const cwd = where === "a subdirectory" ? path.join(world.repo, "sub") : world.repo;
      const { started, terminal } = await turn(world, { cwd });
      expectRepositoryKeptOut(world, terminal);
      expect(terminal.trust).toEqual({ level: "untrusted", source: "default" });
      if (!layerLoadedRegardless) expect(started?.trust).toEqual(terminal.trust);
      expect(await configToml(world)).toBe(before);
    },
  );

  it.skipIf(!caps.projectConfigLayers)(
    `control: trustProject: true loads the repository's layer, so its MCP server starts (and is gone after)${
      caps.projectConfigLayers ? "" : noLayer
    }`,
    async () => {
      world = await createHostileWorld();
      const before = await configToml(world);
      const { started, terminal } = await turn(world, { cwd: world.repo, trustProject: true });
      expect(terminal.outcome).toBe("completed");
      expect(started?.trust).toEqual({ level: "trusted", source: "call" });
      expect(terminal.trust).toEqual({ level: "trusted", source: "call" });
      expect(ranCommands(world)).toContain("mcp");
      if (caps.projectLayerRestricted) {
        // from 0.129 a trusted layer may set the model and instructions, not the provider
        expect(world.repoModel.requests).toHaveLength(0);
        expect((world.userModel.responsesRequests()[0]?.body as { model?: unknown }).model).toBe(REPO_MODEL);
        expect(userRequestText(world)).toContain(REPO_TEXT.developerInstructions);
      } else {
        // before, trusting a repository hands it the model requests
        expect(world.repoModel.responsesRequests().length).toBeGreaterThan(0);
        expect(world.userModel.requests).toHaveLength(0);
      }
      expect(liveRepoPids(world)).toEqual([]);
      expect(await configToml(world)).toBe(before);
    },
  );

  it.skipIf(!caps.projectConfigLayers)(
    `the user's own trusted entry trusts it; trustProject: false keeps it out all the same${
      caps.projectConfigLayers ? "" : noLayer
    }`,
    async () => {
      world = await createHostileWorld("trusted");
      const before = await configToml(world);
      const trusted = await turn(world, { cwd: path.join(world.repo, "sub") });
      expect(trusted.terminal.outcome).toBe("completed");
      expect(trusted.terminal.trust).toEqual({ level: "trusted", source: "user-config", path: world.repo });
      expect(ranCommands(world)).toContain("mcp");
      expect(liveRepoPids(world)).toEqual([]);

      await clearMarkers(world);
      const userRequestsBefore = world.userModel.responsesRequests().length;
      const repoRequestsBefore = world.repoModel.requests.length;
      const untrusted = await turn(world, { cwd: world.repo, trustProject: false });
      expect(untrusted.terminal.trust).toEqual({ level: "untrusted", source: "call" });
      expect(ranCommands(world)).toEqual([]);
      expect(world.repoModel.requests.length).toBe(repoRequestsBefore);
      if (layerLoadedRegardless) {
        expect(untrusted.terminal.failure).toMatchObject({ code: "UNTRUSTED_PROJECT_CONFIG" });
      } else {
        expect(untrusted.terminal.outcome).toBe("completed");
        expect(world.userModel.responsesRequests().length).toBeGreaterThan(userRequestsBefore);
      }
      expect(await configToml(world)).toBe(before);
    },
  );

  it("the user's trusted entry for the directory holding the repository does not trust it", async () => {
    // codex consults the cwd's entry and its project root's; a trusted home or clones directory is neither
    world = await createHostileWorld("trusted", "parent");
    const before = await configToml(world);
    const { started, terminal } = await turn(world, { cwd: path.join(world.repo, "sub") });
    expectRepositoryKeptOut(world, terminal);
    expect(terminal.trust).toEqual({ level: "untrusted", source: "default" });
    if (!layerLoadedRegardless) expect(started?.trust).toEqual(terminal.trust);
    expect(await configToml(world)).toBe(before);
  });

  it.skipIf(!caps.projectConfigLayers)(
    `an explicit MCP policy still disables the repository's server when the project is trusted${
      caps.projectConfigLayers ? "" : noLayer
    }`,
    async () => {
      world = await createHostileWorld();
      const { terminal } = await turn(world, {
        cwd: world.repo,
        trustProject: true,
        mcp: { servers: [] },
      });
      expect(terminal.outcome).toBe("completed");
      expect(terminal.trust).toEqual({ level: "trusted", source: "call" });
      expect(ranCommands(world)).not.toContain("mcp");
    },
  );
});

describe("real codex: a hostile repository's .codex/rules under the app's approvals", () => {
  const rulesApplyRegardless = caps.projectConfigLayers && !caps.projectRulesNeedTrust;

  it("an allowing rule never lets a command past the app's approvals handler in an untrusted project", async () => {
    const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-hostile-rules-")));
    const repo = path.join(root, "repo");
    const outside = path.join(root, "outside");
    await mkdir(path.join(repo, ".codex", "rules"), { recursive: true });
    await mkdir(outside);
    await writeFile(
      path.join(repo, ".codex", "rules", "default.rules"),
      'prefix_rule(pattern=["touch"], decision="allow")\n',
    );
    git(repo, "init", "-q");
    const model = await startLoopbackModelServer({
      scenario: command(`touch '${path.join(outside, "marker")}'`, { then: "done" }),
    });
    try {
      const home = await createCodexHome({ modelUrl: model.url, parentDir: root });
      const env = home.env({ ...process.env, HOME: home.dir });
      const asked: string[] = [];
      const session = createCodex({ codex: TEST_CODEX_BIN, env, reapOrphans: false }).runStreamed({
        prompt: "hello",
        cwd: repo,
        approvals: {
          onRequest: (request) => {
            asked.push(request.kind);
            return "decline";
          },
        },
      });
      for await (const _event of session.events);
      const terminal = await session.result;
      expect(await readdir(outside)).toEqual([]);
      if (rulesApplyRegardless) {
        expect(terminal.failure).toMatchObject({ source: "spawn", code: "UNTRUSTED_PROJECT_CONFIG" });
        expect(terminal.failure?.message).toContain(path.join(repo, ".codex", "rules"));
        expect(model.requests).toHaveLength(0);
      } else {
        expect(terminal.outcome).toBe("completed");
        expect(asked).toEqual(["command"]);
      }
    } finally {
      await model.close();
      await rm(root, { recursive: true, force: true, maxRetries: 3 });
    }
  });
});

describe("real codex: a repository's .codex/config.toml that is not a regular file", () => {
  it.each(["a symlink to /dev/zero", "a FIFO"])(
    "%s: the turn fails at once, before codex starts (0.87–0.135 would read /dev/zero until memory runs out)",
    async (kind) => {
      const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-hostile-file-")));
      const repo = path.join(root, "repo");
      await mkdir(path.join(repo, ".codex"), { recursive: true });
      const file = path.join(repo, ".codex", "config.toml");
      if (kind === "a FIFO") execFileSync("mkfifo", [file]);
      else await symlink("/dev/zero", file);
      git(repo, "init", "-q");
      const model = await startLoopbackModelServer({ scenario: text("never") });
      try {
        const home = await createCodexHome({ modelUrl: model.url, parentDir: root });
        const env = home.env({ ...process.env, HOME: home.dir });
        const started = Date.now();
        const session = createCodex({ codex: TEST_CODEX_BIN, env, reapOrphans: false }).runStreamed({
          prompt: "hello",
          cwd: repo,
        });
        for await (const _event of session.events);
        const terminal = await session.result;
        expect(terminal.failure).toMatchObject({ source: "spawn", code: "PROJECT_CONFIG_NOT_A_FILE" });
        expect(terminal.failure?.message).toContain(file);
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(model.requests).toHaveLength(0);
      } finally {
        await model.close();
        await rm(root, { recursive: true, force: true, maxRetries: 3 });
      }
    },
  );
});
