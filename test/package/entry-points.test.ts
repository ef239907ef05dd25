/** The published entry points resolve from the built package (`npm test` builds first) and export the API. */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

function exportsOf(specifier: string): string[] {
  const script = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m)));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  return JSON.parse(out) as string[];
}

describe("package entry points", () => {
  it("rennet-adapters exports the client, errors, discovery and MCP API", () => {
    expect(exportsOf("rennet-adapters")).toEqual(
      expect.arrayContaining([
        "createCodex",
        "CodexClient",
        "TurnFailedError",
        "TurnCancelledError",
        "discoverCodex",
        "McpPolicyError",
        "runMcpIsolationCheck",
        "REASONING_EFFORTS",
      ]),
    );
  });

  it("rennet-adapters/testkit exports the fakes and the loopback servers", () => {
    expect(exportsOf("rennet-adapters/testkit")).toEqual(
      expect.arrayContaining([
        "InMemoryAppServer",
        "fakeSteps",
        "FAKE_APP_SERVER_BIN",
        "startLoopbackModelServer",
        "modelScenarios",
        "createCodexHome",
        "startLoopbackMcpServer",
      ]),
    );
  });
});
