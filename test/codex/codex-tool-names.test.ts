/**
 * An app tool named like one of Codex's own tools: Codex 0.171 would leave it out of the model's tools and run
 * its own under that name (measured: exec_command, write_stdin, view_image), so the call refuses it before
 * anything starts, naming the rename. Claude Code reaches app tools as mcp__rennet__<name>: no name clashes there.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { defineTool } from "../../src/tools/define-tool.js";

const tool = (name: string) =>
  defineTool({ name, description: "d", inputSchema: { type: "object", properties: {} }, handler: () => "x" });

describe("app tool names and the agents' own tools", () => {
  it.each(["exec_command", "shell", "apply_patch", "update_plan", "view_image", "web_search"])(
    "codex: a tool named %s is TOOL_INVALID at the call, naming the rename; nothing starts",
    async (name) => {
      const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
      const codex = createCodex({ launcher: fake.launcher, env: {} });
      const expected = {
        code: "TOOL_INVALID",
        message: expect.stringContaining(`"${name}" is named like one of Codex's own tools`) as unknown,
      };
      expect(() => codex.runStreamed({ prompt: "hi", tools: [tool("ok"), tool(name)] })).toThrow(
        expect.objectContaining(expected),
      );
      await expect(codex.run({ prompt: "hi", tools: [tool(name)] })).rejects.toMatchObject(expected);
      expect(() => codex.conversation({ tools: [tool(name)] })).toThrow(expect.objectContaining(expected));
      expect(fake.launches).toHaveLength(0);
    },
  );

  it("codex: a name that only looks alike (another case, a prefix) is the app's own", () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    const session = codex.runStreamed({ prompt: "hi", tools: [tool("Shell"), tool("app_exec_command")] });
    session.cancel();
  });

  it("claude: a tool named like a Claude Code tool (Bash, Read) is accepted: Claude sees mcp__rennet__Bash", () => {
    const claude = createClaudeCode({
      launcher: () => {
        throw new Error("not started");
      },
    });
    const session = claude.runStreamed({ prompt: "hi", tools: [tool("Bash"), tool("Read")] });
    session.cancel();
  });
});
