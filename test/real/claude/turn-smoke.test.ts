/**
 * The pure Claude Code parts against the real binary, before the runner exists: the argv builder starts a turn,
 * the stdin message is read, and every stdout line maps to well-formed harness events that end in the expected
 * terminal decision. Offline: a loopback Messages API and a throw-away HOME; `IS_SANDBOX=1` in the child only.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { claudeCapabilities, type ClaudeCapabilities } from "../../../src/claude/capabilities.js";
import { claudeTurnArgs } from "../../../src/claude/turn-argv.js";
import { turnEndOfResult } from "../../../src/claude/turn-end.js";
import { createClaudeHome } from "../../../src/testkit/claude-home.js";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { requireTestClaude, TEST_CLAUDE_BIN, testClaudeVersionOutput } from "../../helpers/claude-bin.js";
import { ofType } from "../../claude/claude-captures.js";
import { expectWellFormed } from "../../helpers/well-formed.js";
import { ClaudeTurnFixture, type DrivenTurn } from "./claude-turn-driver.js";

let capabilities: ClaudeCapabilities;
let versionOutput: string;
const fixture = new ClaudeTurnFixture();

beforeAll(async () => {
  requireTestClaude();
  const home = await createClaudeHome({ modelUrl: "http://127.0.0.1:9" });
  try {
    versionOutput = testClaudeVersionOutput(home.env({ ...process.env, HOME: home.dir }));
  } finally {
    await home.cleanup();
  }
  capabilities = claudeCapabilities(versionOutput);
  console.log(`real-binary Claude tests run ${versionOutput} at ${TEST_CLAUDE_BIN}`);
});

// a release older than the oldest supported one cannot run Rennet's turn (it lacks --no-session-persistence)
beforeEach((context) => {
  if (!capabilities.supported) context.skip();
});

afterEach(async () => {
  await fixture.dispose();
});

const plain = { interruptReason: null, structuredOutput: false };

/** The files Claude wrote under `~/.claude/projects` (transcripts), relative to it. */
function transcripts(turn: DrivenTurn): string[] {
  const root = path.join(turn.home.dir, ".claude", "projects");
  try {
    return readdirSync(root, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".jsonl"));
  } catch {
    return [];
  }
}

describe(`real claude (2.0.64 or newer): a turn from the argv builder, the stdin message and the mapper`, () => {
  it("maps a text turn to streamed text, usage with cost, and a completed end; no transcript is kept", async () => {
    const message = "Hello from the loopback model";
    const turn = await fixture.run(
      scenarios.text(message),
      claudeTurnArgs({ capabilities }),
      "Say hello (rennet smoke prompt)",
    );
    expect(turn.exit, turn.stderr).toEqual({ code: 0, signal: null });
    expect(turn.spawnargs.join(" ")).not.toContain("rennet smoke prompt");
    const { events, mapper } = turn;
    expectWellFormed(events);
    expect(ofType(events, "passthrough")).toEqual([]);
    expect(events.filter((e) => e.type === "turn.started")).toEqual([
      { type: "turn.started", threadId: mapper.sessionId },
    ]);
    expect(mapper.cwd).toBe(turn.cwd);
    expect(capabilities.version).toBe(mapper.harnessVersion);
    expect(
      ofType(events, "text.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe(message);
    expect(ofType(events, "text.completed")).toEqual([expect.objectContaining({ text: message })]);
    const usage = ofType(events, "usage").at(-1)?.usage;
    expect(usage).toEqual(
      expect.objectContaining({ inputTokens: 19, cacheReadTokens: 5, cacheWriteTokens: 3, outputTokens: 7 }),
    );
    expect(usage?.costUsd).toBeGreaterThan(0);
    expect(mapper.result).not.toBeNull();
    expect(turnEndOfResult(mapper.result!, plain)).toEqual({
      outcome: "completed",
      failure: null,
      cancellation: null,
    });
    expect(mapper.finalMessage).toBe(message);
    // the prompt went over stdin and reached the model; the isolation flags were accepted
    const requests = turn.model.messagesRequests();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0]?.path).toBe("/v1/messages?beta=true");
    expect(requests[0]?.headers["x-api-key"]).toBe("rennet-loopback-key");
    expect(requests[0]?.rawBody).toContain("rennet smoke prompt");
    const init = turn.results.find((result) => result.init)?.init;
    expect(init).toEqual(expect.objectContaining({ mcp_servers: [], permissionMode: "bypassPermissions" }));
    expect(transcripts(turn)).toEqual([]);
  });

  it("maps two Bash calls to paired command events with exit statuses 0 and 3, then the final text", async () => {
    const turn = await fixture.run(
      scenarios.toolUses(
        [
          { name: "Bash", input: { command: "echo rennet-ok-$((6*7))", description: "ok" } },
          { name: "Bash", input: { command: "echo rennet-fail; exit 3", description: "fail" } },
        ],
        { then: "Bash done." },
      ),
      claudeTurnArgs({ capabilities }),
      "Run the commands",
    );
    expect(turn.exit, turn.stderr).toEqual({ code: 0, signal: null });
    const { events, mapper } = turn;
    expectWellFormed(events);
    expect(ofType(events, "passthrough")).toEqual([]);
    expect(ofType(events, "tool.started").map((e) => [e.tool, e.title])).toEqual([
      ["command", "echo rennet-ok-$((6*7))"],
      ["command", "echo rennet-fail; exit 3"],
    ]);
    expect(ofType(events, "tool.output").map((e) => e.text.trim())).toEqual(["rennet-ok-42", "rennet-fail"]);
    expect(ofType(events, "tool.completed").map((e) => [e.status, e.exitCode])).toEqual([
      ["completed", 0],
      ["failed", 3],
    ]);
    expect(mapper.finalMessage).toBe("Bash done.");
    expect(turnEndOfResult(mapper.result!, plain).outcome).toBe("completed");
    // the model saw the failed command's result as Claude reports it
    expect(turn.model.messagesRequests().some((request) => request.rawBody.includes("Exit code 3"))).toBe(
      true,
    );
    expect(ofType(events, "usage").at(-1)?.usage.inputTokens).toBeGreaterThan(19);
  });

  it("maps an Edit to a fileChange tool and file.changed with Claude's patch as a unified diff", async () => {
    // Read first: up to 2.1.112 (at least) Claude refuses an Edit of a file it has not read in the session
    const file = (cwd: string): string => path.join(cwd, "a.txt");
    const readThenEdit = scenarios.toolUses(
      [
        { name: "Read", input: (cwd) => ({ file_path: file(cwd) }) },
        { name: "Edit", input: (cwd) => ({ file_path: file(cwd), old_string: "beta", new_string: "BETA" }) },
      ],
      { then: "Edited." },
    );
    const turn = await fixture.run(readThenEdit, claudeTurnArgs({ capabilities }), "Edit the file", {
      files: { "a.txt": "alpha\nbeta\ngamma\n" },
    });
    expect(turn.exit, turn.stderr).toEqual({ code: 0, signal: null });
    expectWellFormed(turn.events);
    expect(ofType(turn.events, "file.changed")).toEqual([
      expect.objectContaining({
        status: "completed",
        changes: [
          {
            path: path.join(turn.cwd, "a.txt"),
            kind: "update",
            diff: "@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n",
          },
        ],
      }),
    ]);
    expect(readFileSync(path.join(turn.cwd, "a.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
    expect(turn.mapper.finalMessage).toBe("Edited.");
  });

  it("maps a provider error to a failed turn carrying the provider's message and status", async () => {
    const turn = await fixture.run(
      scenarios.httpError(529, "loopback is overloaded"),
      claudeTurnArgs({ capabilities }),
      "Fail please",
    );
    expect(turn.exit.code).toBe(1);
    expectWellFormed(turn.events);
    const end = turnEndOfResult(turn.mapper.result!, plain);
    expect(end.outcome).toBe("failed");
    expect(end.failure).toEqual(
      expect.objectContaining({
        source: "turn",
        message: expect.stringContaining("529"),
        // releases before 2.1.112 report no status on the result (see claudeCapabilities)
        errorInfo: expect.objectContaining({
          api_error_status: capabilities.resultTerminalReason ? 529 : null,
        }),
      }),
    );
    expect(end.failure?.message).toContain("loopback is overloaded");
    // CLAUDE_CODE_MAX_RETRIES=0 from the home: Claude did not retry (a retry is announced by system/api_retry)
    expect(ofType(turn.events, "warning").map((e) => e.method)).not.toContain("system/api_retry");
    const requests = turn.model.messagesRequests();
    expect(requests.some((request) => request.rawBody.includes("Fail please"))).toBe(true);
  });
});
