/**
 * `mcp: null` is not a policy. Left as `?? default`, it meant "inherit" (the user's servers and plugins) on Codex
 * and "no server" on Claude Code: one untyped value, opposite isolation. Each client refuses it before anything
 * starts, as every other malformed policy (`MCP_SPEC_INVALID`).
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

const refused = {
  name: "McpPolicyError",
  code: "MCP_SPEC_INVALID",
  message: expect.stringContaining('an MCP policy is "inherit" or {servers: [...]}, got null'),
};

describe("mcp: null", () => {
  it("is refused by every Codex call before anything starts", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("hi") });
    const codex = createCodex({
      launcher: fake.launcher,
      codex: "/opt/codex/bin/codex",
      env: { PATH: "/bin" },
    });
    const call = { prompt: "x", mcp: null } as never;
    expect(() => codex.runStreamed(call)).toThrow(expect.objectContaining(refused));
    await expect(codex.run(call)).rejects.toMatchObject(refused);
    await expect(codex.conversation({ mcp: null } as never).run("x")).rejects.toMatchObject(refused);
    expect(fake.launches).toHaveLength(0);
  });

  it("is refused by every Claude Code call before anything starts", async () => {
    const fake = new InMemoryClaude({ turn: claudeSteps.textTurn("hi") });
    const claude = createClaudeCode({ launcher: fake.launcher, env: { IS_SANDBOX: "1", PATH: "/bin" } });
    const call = { prompt: "x", mcp: null } as never;
    expect(() => claude.runStreamed(call)).toThrow(expect.objectContaining(refused));
    await expect(claude.run(call)).rejects.toMatchObject(refused);
    expect(fake.launches).toEqual([]);
  });
});
