/**
 * `rennet codex run --tool MODULE --json` against the real codex, offline: the module's defineTool exports
 * (made by the built package, another copy of the library than the CLI under test) are offered, the model's call
 * runs the handler, and the JSON lines show the app tool's pair before the terminal event.
 */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { appToolCall, functionCallOutputs } from "../../src/testkit/model-scenarios.js";
import { REPO_ROOT, TEST_CODEX_BIN, testCodexVersion } from "../helpers/codex-bin.js";
import { runCodexCli } from "../helpers/real-codex-cli.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

const execFileAsync = promisify(execFile);

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

const TOOLS_MODULE = (entry: string): string => `
import { defineTool } from ${JSON.stringify(entry)};
export const shout = defineTool({
  name: "shout",
  description: "Upper-cases its text",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  handler: ({ text }) => text.toUpperCase(),
});
export const notATool = 42;
`;

function run(f: RealCodexFixture, args: string[]) {
  return runCodexCli(f, "run", args);
}

const capabilities = codexCapabilities(testCodexVersion());

/** The text of a tool output: codex before 0.100 sends the MCP result's content parts as JSON. */
function outputText(output: string | undefined): string | undefined {
  if (output === undefined || !output.startsWith("[")) return output;
  return (JSON.parse(output) as { text?: string }[]).map((part) => part.text ?? "").join("");
}

// codex 0.100+ serves the tools as dynamic tools, 0.72–0.99 over the loopback MCP server
describe.runIf(capabilities.dynamicTools || capabilities.appToolsOverMcp)(
  "real codex, offline: run --tool",
  () => {
    it("loads the module's tools, runs the call, and --json shows the app tool events", async () => {
      fixture = await startRealCodex(appToolCall("shout", { text: "hello" }, { then: "shouted" }));
      const entry = pathToFileURL(path.join(REPO_ROOT, "dist", "index.js")).href;
      await writeFile(path.join(fixture.cwd, "tools.mjs"), TOOLS_MODULE(entry));
      const { code, stdout, stderr } = await run(fixture, ["--tool", "./tools.mjs", "--json", "shout hello"]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      const events = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const app = events.filter((e) => e.tool === "app");
      expect(app.map((e) => [e.type, e.status ?? null])).toEqual([
        ["tool.started", null],
        ["tool.completed", "completed"],
      ]);
      expect(app[1]).toMatchObject({
        app: { name: "shout", arguments: { text: "hello" }, result: [{ type: "text", text: "HELLO" }] },
      });
      expect(events.at(-1)).toMatchObject({
        type: "terminal",
        outcome: "completed",
        finalMessage: "shouted",
      });
      const outputs = functionCallOutputs(fixture.model.responsesRequests().at(-1));
      expect(outputs.map((o) => [o.callId, outputText(o.output)])).toEqual([["call_0", "HELLO"]]);
    });

    // the built CLI in its own Node, which loads CommonJS natively (vitest's loader would show the names)
    it("loads a CommonJS module whose module.exports is an object held in a variable", async () => {
      fixture = await startRealCodex(appToolCall("shout", { text: "hello" }, { then: "shouted" }));
      const entry = path.join(REPO_ROOT, "dist", "index.js");
      const cjs = `const { defineTool } = require(${JSON.stringify(entry)});
const tools = {
  shout: defineTool({
    name: "shout",
    description: "Upper-cases its text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    handler: ({ text }) => text.toUpperCase(),
  }),
};
module.exports = tools;
`;
      await writeFile(path.join(fixture.cwd, "tools.cjs"), cjs);
      const env: NodeJS.ProcessEnv = { ...fixture.env };
      delete env.RENNET_CODEX_BIN;
      const bin = path.join(REPO_ROOT, "bin", "rennet.js");
      const args = [
        "codex",
        "run",
        "--codex-bin",
        TEST_CODEX_BIN,
        "--tool",
        "./tools.cjs",
        "--json",
        "shout hello",
      ];
      const { stdout } = await execFileAsync(process.execPath, [bin, ...args], { cwd: fixture.cwd, env });
      const last = JSON.parse(stdout.trim().split("\n").at(-1) ?? "null") as Record<string, unknown>;
      expect(last).toMatchObject({ type: "terminal", outcome: "completed", finalMessage: "shouted" });
      const outputs = functionCallOutputs(fixture.model.responsesRequests().at(-1));
      expect(outputs.map((o) => outputText(o.output))).toEqual(["HELLO"]);
    });

    it("a module that exports no tool is a usage error (exit 2) before codex starts", async () => {
      fixture = await startRealCodex(appToolCall("shout", {}, { then: "x" }));
      await writeFile(path.join(fixture.cwd, "empty.mjs"), "export const x = 1;\n");
      const { code, stderr } = await run(fixture, ["--tool", "empty.mjs", "hi"]);
      expect(code).toBe(2);
      expect(stderr).toContain("--tool empty.mjs: the module exports no tool");
      expect(fixture.sent("initialize")).toEqual([]);
    });
  },
);
