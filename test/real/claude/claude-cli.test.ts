/**
 * `rennet claude run | exec | mcp-isolation` as a process (the built CLI) against the real claude offline: a
 * loopback Messages API, a throw-away HOME, `IS_SANDBOX=1` for the child (tests run as root; Rennet never sets it).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { probeMcpStatus } from "../../../src/claude/mcp/mcp-status-probe.js";
import { claudeCapabilities } from "../../../src/claude/capabilities.js";
import { claudeTurnArgs } from "../../../src/claude/turn-argv.js";
import type { TerminalEvent } from "../../../src/harness/events.js";
import { spawnStdioChild } from "../../../src/process/stdio-launcher.js";
import { createClaudeHome, type ClaudeHome } from "../../../src/testkit/claude-home.js";
import { startLoopbackMessagesServer } from "../../../src/testkit/loopback-messages-server.js";
import type { MessagesScenario } from "../../../src/testkit/messages-response-plan.js";
import { bash, structuredOutput, text } from "../../../src/testkit/messages-scenarios.js";
import { requireBuild, startCliProcess } from "../../cli/helpers/cli-process.js";
import { requireTestClaude, TEST_CLAUDE_BIN, testClaudeVersionOutput } from "../../helpers/claude-bin.js";
import { waitFor } from "../../helpers/wait.js";
import { processesWith } from "./claude-helpers.js";

let supported = false;
beforeAll(async () => {
  requireTestClaude();
  const home = await createClaudeHome({ modelUrl: "http://127.0.0.1:9" });
  try {
    supported = claudeCapabilities(
      testClaudeVersionOutput(home.env({ ...process.env, HOME: home.dir })),
    ).supported;
  } finally {
    await home.cleanup();
  }
});

// a release older than the oldest supported one cannot run Rennet's turn (rennet exits 3 before it starts)
beforeEach((context) => {
  if (!supported) context.skip();
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function offline(scenario: MessagesScenario) {
  requireBuild();
  const model = await startLoopbackMessagesServer({ scenario });
  cleanups.push(() => model.close());
  const home = await createClaudeHome({ modelUrl: model.url });
  cleanups.push(() => home.cleanup());
  const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-claude-cli-"));
  cleanups.push(() => rm(cwd, { recursive: true, force: true }));
  return { model, home, cwd, env: { ...home.env(), IS_SANDBOX: "1" } };
}

async function rennet(args: string[], setup: { env: NodeJS.ProcessEnv; cwd: string }) {
  const run = startCliProcess(["claude", ...args], setup);
  const code = await run.exit;
  return { code, stdout: run.stdout(), stderr: run.stderr(), events: () => run.events() };
}

describe("rennet claude (2.0.64 or newer), the real claude offline", () => {
  it("run --json: a Bash turn streams paired tool events and ends completed, exit 0", async () => {
    const setup = await offline(bash("echo cli-marker-42", { then: "It printed the marker." }));
    const { code, events, stderr } = await rennet(
      ["run", "--json", "--claude-bin", TEST_CLAUDE_BIN, "--cwd", setup.cwd, "print the marker"],
      setup,
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const all = events();
    const started = all.filter((e) => e.type === "tool.started");
    const completed = all.filter((e) => e.type === "tool.completed");
    expect(started).toHaveLength(1);
    expect(completed).toMatchObject([{ itemId: started[0]!.itemId, tool: "command" }]);
    expect(JSON.stringify(all.filter((e) => e.type === "tool.output"))).toContain("cli-marker-42");
    const terminal = all.at(-1) as TerminalEvent;
    expect(terminal).toMatchObject({ type: "terminal", outcome: "completed", harness: "claude-code" });
    expect(terminal.finalMessage).toBe("It printed the marker.");
  });

  it("run --json, SIGINT mid-command: claude's interrupt, exit 130, a cancelled terminal last, nothing left", async () => {
    const marker = `${7000 + Math.floor(Math.random() * 900)}`;
    const setup = await offline(
      bash(`echo started; setsid sleep ${marker}1 & sleep ${marker}2`, { then: "never" }),
    );
    const run = startCliProcess(
      ["claude", "run", "--json", "--claude-bin", TEST_CLAUDE_BIN, "--cwd", setup.cwd, "run it"],
      setup,
    );
    await waitFor(() => processesWith(`sleep ${marker}1`).length > 0, "the command's setsid grandchild");
    expect(processesWith(`sleep ${marker}1`), run.stderr()).not.toEqual([]);
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(130);
    const all = run.events();
    expect(all.filter((e) => e.type === "terminal")).toHaveLength(1);
    expect(all.at(-1)).toMatchObject({
      type: "terminal",
      outcome: "cancelled",
      cancellation: { via: "interrupted", reason: "received SIGINT" },
    });
    expect(run.stderr()).toContain("SIGINT: cancelling the turn (claude gets up to 2 s to stop");
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it("exec: the StructuredOutput value is printed as one line of JSON, exit 0", async () => {
    const setup = await offline(structuredOutput({ answer: 42, unit: "none" }));
    await writeFile(
      path.join(setup.cwd, "schema.json"),
      JSON.stringify({
        type: "object",
        properties: { answer: { type: "integer" }, unit: { type: "string" } },
        required: ["answer"],
      }),
    );
    const { code, stdout, stderr } = await rennet(
      [
        "exec",
        "--claude-bin",
        TEST_CLAUDE_BIN,
        "--cwd",
        setup.cwd,
        "--schema",
        "schema.json",
        "what is 6*7?",
      ],
      setup,
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ answer: 42, unit: "none" });
  });
});

describe("rennet claude mcp-isolation (2.0.64 or newer), the real claude offline", () => {
  /** A user server in ~/.claude.json and a repository .mcp.json that approves itself: markers when started. */
  async function plant(home: ClaudeHome, cwd: string) {
    const markers = {
      user: path.join(home.dir, "marker-user-mcp"),
      repo: path.join(home.dir, "marker-repo-mcp"),
    };
    const server = (marker: string) => ({
      type: "stdio",
      command: "sh",
      args: ["-c", `touch '${marker}'; exec cat >/dev/null`],
    });
    await writeFile(
      path.join(home.dir, ".claude.json"),
      JSON.stringify({ mcpServers: { mine: server(markers.user) } }),
    );
    await writeFile(
      path.join(cwd, ".mcp.json"),
      JSON.stringify({ mcpServers: { repo: server(markers.repo) } }),
    );
    // the repository's own settings approve its server (Claude honours that once the project's settings are in)
    await mkdir(path.join(cwd, ".claude"));
    await writeFile(
      path.join(cwd, ".claude", "settings.json"),
      JSON.stringify({ enableAllProjectMcpServers: true }),
    );
    return markers;
  }

  it("neither the user's nor the repository's server starts, the loopback one connects: exit 0; the control starts both", async () => {
    const setup = await offline(text("never asked"));
    // the run trusts the repository's settings, which approve its server: only the MCP policy keeps it out
    const markers = await plant(setup.home, setup.cwd);
    const { code, stdout, stderr } = await rennet(
      ["mcp-isolation", "--json", "--trust-project", "--claude-bin", TEST_CLAUDE_BIN, "--cwd", setup.cwd],
      setup,
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { verdict: string; runs: { servers: { name: string }[] }[] };
    expect(report.verdict).toBe("ok");
    expect(report.runs.map((run) => run.servers.map((s) => s.name))).toEqual([
      [],
      ["rennet-isolation-probe"],
    ]);
    expect(existsSync(markers.user) || existsSync(markers.repo)).toBe(false);
    // no prompt is ever sent (2.0.x sends its own "Warmup" requests at start, with or without one)
    const prompts = setup.model
      .messagesRequests()
      .filter((request) => !request.rawBody.includes('"text":"Warmup"'));
    expect(prompts.map((request) => request.rawBody.slice(0, 200))).toEqual([]);

    // the control: the same claude without the policy starts both servers and lists them (2.0.77 answers no
    // control request while a stdio server it started has not answered MCP's initialize: markers only there)
    const observation = await probeMcpStatus({
      launcher: spawnStdioChild,
      command: TEST_CLAUDE_BIN,
      args: claudeTurnArgs({
        capabilities: claudeCapabilities(null),
        permissionMode: "default",
        trustProject: true,
        mcp: "inherit",
      }),
      cwd: setup.cwd,
      env: setup.env,
      settleMs: 3000,
      requestMs: 10_000,
    }).catch((error: unknown) => {
      if (!String(error).includes("did not answer initialize")) throw error;
      return null;
    });
    if (observation !== null) {
      const scopes = new Map(observation.servers.map((server) => [server.name, server.scope]));
      expect([...scopes.keys()].sort()).toEqual(["mine", "repo"]);
      // 2.0.77 reports no scope
      if (scopes.get("mine") !== null)
        expect([scopes.get("mine"), scopes.get("repo")]).toEqual(["user", "project"]);
    }
    expect(existsSync(markers.user) && existsSync(markers.repo)).toBe(true);
  });
});
