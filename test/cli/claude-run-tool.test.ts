/**
 * `rennet claude run --tool MODULE` against the in-memory fake claude: the module's defineTool exports are
 * served over Claude Code's control channel, `--json` shows the call as one `app` tool pair, and a module that
 * exports no tool is a usage error before anything starts.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { REPO_ROOT } from "../helpers/codex-bin.js";
import { runClaudeCli } from "./helpers/claude-cli-harness.js";
import { runCli } from "./helpers/cli-harness.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "rennet-cli-claude-tool-"));
  const entry = pathToFileURL(path.join(REPO_ROOT, "src", "tools", "define-tool.ts")).href;
  await writeFile(
    path.join(dir, "tools.mjs"),
    `import { defineTool } from ${JSON.stringify(entry)};
export const shout = defineTool({
  name: "shout",
  description: "Upper-cases its text",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  handler: ({ text }) => text.toUpperCase(),
});
`,
  );
  await writeFile(path.join(dir, "empty.mjs"), "export const x = 1;\n");
  await writeFile(
    path.join(dir, "builtin.mjs"),
    `import { defineTool } from ${JSON.stringify(entry)};
export const shell = defineTool({ name: "shell", description: "d", inputSchema: { type: "object" }, handler: () => "" });
`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const handshake = [
  claudeSteps.mcpMessage("h1", "rennet", { method: "initialize", params: {}, jsonrpc: "2.0", id: 0 }),
  { awaitControlResponse: "h1" },
  claudeSteps.mcpMessage("h2", "rennet", { method: "tools/list", jsonrpc: "2.0", id: 1 }),
  { awaitControlResponse: "h2" },
];

describe("rennet claude run --tool", () => {
  it("serves the module's tools and --json shows the call as one app tool pair", async () => {
    const { code, events, stderr } = await runClaudeCli(
      ["claude", "run", "--tool", "./tools.mjs", "--json", "--cwd", dir, "shout hello"],
      {
        cwd: dir,
        script: {
          turn: [
            ...handshake,
            claudeSteps.init(),
            ...claudeSteps.mcpToolCall("toolu_1", "shout", { text: "hello" }, { messageId: "msg_1" }),
            ...claudeSteps.text("shouted", { messageId: "msg_2" }),
            claudeSteps.result({ result: "shouted" }),
          ],
        },
      },
    );
    expect(stderr.text).toBe("");
    expect(code).toBe(0);
    const app = events().filter(
      (e) => (e.type === "tool.started" || e.type === "tool.completed") && e.tool === "app",
    );
    expect(app.map((e) => e.type)).toEqual(["tool.started", "tool.completed"]);
    expect(app[1]).toMatchObject({
      app: { name: "shout", arguments: { text: "hello" }, result: [{ type: "text", text: "HELLO" }] },
    });
    expect(events().at(-1)).toMatchObject({
      type: "terminal",
      outcome: "completed",
      finalMessage: "shouted",
    });
  });

  it("a module that exports no tool is a usage error (exit 2) before claude starts", async () => {
    const { code, stderr, fake } = await runClaudeCli(
      ["claude", "run", "--tool", "empty.mjs", "--cwd", dir, "hi"],
      { cwd: dir, script: { turn: [claudeSteps.init(), claudeSteps.result({ result: "x" })] } },
    );
    expect(code).toBe(2);
    expect(stderr.text).toContain("--tool empty.mjs: the module exports no tool");
    expect(fake.launches).toEqual([]);
  });

  // the library refuses that name beside app tools: the command line says so before anything starts
  it.each([
    ["claude", runClaudeCli, "Claude Code"],
    ["codex", runCli, "codex before 0.100"],
  ] as const)(
    "%s: an --mcp-server named rennet beside --tool is a usage error (exit 2) naming the flag",
    async (harness, run, agent) => {
      const { code, stderr, fake } = await run(
        [harness, "run", "--tool", "tools.mjs", "--mcp-server", "rennet=http://127.0.0.1:9/mcp", "hi"],
        { cwd: dir },
      );
      expect(stderr.text).not.toContain("internal error");
      expect(code).toBe(2);
      expect(stderr.text).toContain(
        `the MCP server name "rennet" is where ${agent} reaches the app tools: rename that server in --mcp-server`,
      );
      expect(stderr.text).toContain(`rennet ${harness} run --help`);
      expect(fake.launches).toEqual([]);
    },
  );
  it("codex: a --tool named like a Codex tool is a usage error before anything starts", async () => {
    const codex = await runCli(["codex", "run", "--tool", "builtin.mjs", "hi"], { cwd: dir });
    expect(codex.code).toBe(2);
    expect(codex.stderr.text).toContain(`the app tool "shell" is named like one of Codex's own tools`);
    expect(codex.fake.launches).toEqual([]);
  });
});
