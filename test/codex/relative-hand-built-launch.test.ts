/**
 * A hand-built `ResolvedCodex` whose launch names a relative file (`bin/codex`) means that file under the
 * process's current directory, as a path given as a string does: never a file of the repository a turn runs in.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkProjectTrust, createCodex, runMcpIsolationCheck } from "../../src/index.js";
import type { ResolvedCodex } from "../../src/codex/launch/codex-launch.js";
import { absoluteLaunch } from "../../src/discovery/absolute-launch.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";

const REPO = path.resolve("test");
const handBuilt: ResolvedCodex = {
  launch: { type: "node-launcher", node: "./node", script: "lib/codex.js" },
  path: "lib/codex.js",
  version: null,
  source: "explicit",
};
const expected = [path.resolve("node"), path.resolve("lib/codex.js")];

function fake(): InMemoryAppServer {
  return new InMemoryAppServer({
    replies: { initialize: { result: { userAgent: "codex_cli_rs/0.171.0 (fake)" } } },
    turn: [fakeSteps.turnStarted()],
  });
}

function launched(server: InMemoryAppServer): string[] {
  const spec = server.launches[0]?.spec;
  return spec ? [spec.command, spec.args[0] ?? ""] : [];
}

describe("a hand-built launch with relative paths", () => {
  it("createCodex({ codex }) starts the files under the process's cwd, not the turn's", async () => {
    const server = fake();
    const client = createCodex({ codex: handBuilt, launcher: server.launcher, env: {} });
    const session = client.runStreamed({ prompt: "hi", cwd: REPO });
    for await (const event of session.events) if (event.type === "turn.started") session.cancel("done");
    expect(launched(server)).toEqual(expected);
  });

  it("checkProjectTrust() does the same", async () => {
    const server = fake();
    await checkProjectTrust({ codex: handBuilt, cwd: REPO, env: {}, launcher: server.launcher }).catch(
      () => undefined,
    );
    expect(launched(server)).toEqual(expected);
  });

  it("runMcpIsolationCheck() does the same (the inventory it runs first names what it ran)", async () => {
    const report = await runMcpIsolationCheck({ codex: handBuilt.launch, cwd: REPO, env: {} });
    expect(report.codex).toBe(expected.join(" "));
  });

  it("keeps bare names and absolute paths of either syntax", () => {
    const windows = { type: "native", command: "C:\\codex\\codex.exe" } as const;
    expect(absoluteLaunch(windows)).toBe(windows);
    const posix = { type: "native", command: "/opt/codex" } as const;
    expect(absoluteLaunch(posix)).toBe(posix);
    const bare = { type: "native", command: "codex" } as const;
    expect(absoluteLaunch(bare)).toBe(bare);
  });
});
