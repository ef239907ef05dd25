/**
 * A relative `CLAUDE_CONFIG_DIR` or `CLAUDE_CODE_TMPDIR` names a directory from the process's current directory.
 * Claude Code resolves it against its own working directory, the repository (measured on 2.1.332: `claude mcp
 * list` with `CLAUDE_CONFIG_DIR=rel` lists the servers of `<cwd>/rel/.claude.json`): the child gets both absolute,
 * so a repository holding a directory of that name never supplies the user's settings.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { runClaudeMcpIsolationCheck } from "../../src/claude/mcp/mcp-isolation.js";
import type { LaunchSpec, StdioChild } from "../../src/process/stdio-child.js";
import { InMemoryClaude } from "../../src/testkit/index.js";

let root = "";
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "rennet-claude-dirs-")));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("relative Claude Code directories in the environment", () => {
  it("reach the child resolved against the process's directory, not the call's cwd", async () => {
    const repo = path.join(root, "repo");
    await fs.mkdir(repo);
    const fake = new InMemoryClaude();
    const env = {
      IS_SANDBOX: "1",
      CLAUDE_CONFIG_DIR: ".claude-config",
      CLAUDE_CODE_TMPDIR: path.relative(process.cwd(), root),
    };
    await createClaudeCode({ launcher: fake.launcher, env }).run({ prompt: "hi", cwd: repo });
    const spec = fake.launches[0]?.spec;
    expect(spec?.cwd).toBe(repo);
    expect(spec?.env?.CLAUDE_CONFIG_DIR).toBe(path.resolve(".claude-config"));
    expect(spec?.env?.CLAUDE_CODE_TMPDIR?.startsWith(path.join(root, "rennet-claude-"))).toBe(true);
  });

  it("reaches the MCP isolation check's claude the same way, so it checks the config turns use", async () => {
    const specs: LaunchSpec[] = [];
    const launcher = (spec: LaunchSpec): StdioChild => {
      specs.push(spec);
      throw new Error("not started");
    };
    const env = { CLAUDE_CONFIG_DIR: ".claude-config" };
    await runClaudeMcpIsolationCheck({ claude: "/opt/claude", env, cwd: root, launcher, settleMs: 100 });
    expect(specs.map((spec) => spec.env?.CLAUDE_CONFIG_DIR)).toEqual([
      path.resolve(".claude-config"),
      path.resolve(".claude-config"),
    ]);
  });

  it("an absolute one is passed as given", async () => {
    const fake = new InMemoryClaude();
    const env = { IS_SANDBOX: "1", CLAUDE_CONFIG_DIR: path.join(root, "config") };
    await createClaudeCode({ launcher: fake.launcher, env }).run({ prompt: "hi", cwd: root });
    expect(fake.launches[0]?.spec.env?.CLAUDE_CONFIG_DIR).toBe(path.join(root, "config"));
  });
});
