import { describe, expect, it } from "vitest";
import { fakeSteps, type FakeStep } from "../../src/testkit/fake-script.js";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../helpers/codex-bin.js";
import { tempDir } from "../helpers/temp.js";
import { parseJsonLines, runCli } from "./helpers/cli-harness.js";

/** `rennet codex run --ask`: the person at the terminal answers each approval; the limit flags. */

const TTY = { stdin: true, stderr: true };

function asking(...commands: string[]): FakeStep[] {
  return [
    fakeSteps.turnStarted(),
    ...commands.flatMap((command, id) => [
      fakeSteps.commandApproval(id, { command: `/bin/bash -c '${command}'`, cwd: "/repo" }),
      { awaitReply: id },
    ]),
    ...fakeSteps.textTurn("done").slice(1),
  ];
}

function replies(fake: { peer: { received: Record<string, unknown>[] } }): unknown[] {
  return fake.peer.received.filter((f) => !("method" in f)).map((f) => f.result);
}

describe("--ask", () => {
  it("with --tool, asks before each app tool call; `n` answers the agent with a tool error", async () => {
    const dir = await tempDir("cli-ask-tool");
    const entry = pathToFileURL(path.join(REPO_ROOT, "src", "tools", "define-tool.ts")).href;
    await writeFile(
      path.join(dir, "tools.mjs"),
      `import { defineTool } from ${JSON.stringify(entry)};
export const shout = defineTool({ name: "shout", description: "d", inputSchema: { type: "object" }, handler: () => "HI" });
`,
    );
    const { code, stderr, fake } = await runCli(
      ["codex", "run", "--ask", "--no-color", "--tool", "./tools.mjs", "--cwd", dir, "go"],
      {
        cwd: dir,
        isTTY: TTY,
        stdin: "n\n",
        script: {
          turn: [
            fakeSteps.turnStarted(),
            ...fakeSteps.appToolCall(7, "shout", { text: "hi" }),
            ...fakeSteps.textTurn("done").slice(1),
          ],
        },
      },
    );
    expect(code).toBe(0);
    expect(stderr.text).toContain('? call app tool shout {"text":"hi"}');
    expect(stderr.text).toContain("· declined by you");
    expect(replies(fake)).toEqual([expect.objectContaining({ success: false })]);
  });

  it("shows each command and sends the typed answer; `a` accepts the same command again without asking", async () => {
    const { code, stderr, fake } = await runCli(["codex", "run", "--ask", "--no-color", "fix it"], {
      isTTY: TTY,
      stdin: "n\nmaybe\na\n",
      script: { turn: asking("rm -rf build", "npm test", "npm test") },
    });
    expect(code).toBe(0);
    expect(replies(fake)).toEqual([
      { decision: "decline" },
      { decision: "acceptForSession" },
      { decision: "accept" },
    ]);
    expect(stderr.text).toContain("? run: $ rm -rf build");
    expect(stderr.text).toContain("in /repo");
    expect(stderr.text).toMatch(
      /allow\? \[y\]es \/ \[n\]o \/ \[a\]lways \(this session\) \/ \[c\]ancel the turn/,
    );
    expect(stderr.text).toContain("? run: $ npm test (allowed for this session)");
    expect(stderr.text).toContain("· declined by you");
    expect(stderr.text).toContain("· accepted for this session by you");
    expect(fake.peer.requestsOf("thread/start")[0]?.params).toMatchObject({ approvalPolicy: "untrusted" });
  });

  it("`c` cancels the turn; the end of stdin declines", async () => {
    const cancelled = await runCli(["codex", "run", "--ask", "--json", "go"], {
      isTTY: TTY,
      stdin: "c\n",
      script: { turn: asking("make deploy") },
    });
    expect(replies(cancelled.fake)).toEqual([{ decision: "cancel" }]);
    const events = parseJsonLines(cancelled.stdout.text);
    expect(events.map((e) => e.type)).toContain("approval.requested");
    expect(events.find((e) => e.type === "approval.resolved")).toMatchObject({
      decision: "cancel",
      decidedBy: "handler",
    });

    const ended = await runCli(["codex", "run", "--ask", "go"], {
      isTTY: TTY,
      stdin: "",
      script: { turn: asking("ls") },
    });
    expect(replies(ended.fake)).toEqual([{ decision: "decline" }]);
  });

  it("`c` to a request that offers no cancel (permissions) declines it and cancels the turn", async () => {
    const { code, stdout, fake } = await runCli(["codex", "run", "--ask", "--json", "go"], {
      isTTY: TTY,
      stdin: "c\n",
      script: {
        turn: [
          fakeSteps.turnStarted(),
          fakeSteps.permissionsApproval(0),
          { awaitReply: 0 },
          { delayMs: 30_000 },
          ...fakeSteps.textTurn("done").slice(1),
        ],
      },
      interruptGraceMs: 50,
    });
    expect(replies(fake)[0]).toMatchObject({ permissions: {} });
    const events = parseJsonLines(stdout.text);
    // the turn's cancel answers the pending request (grant nothing) before the handler's own decline
    expect(events.find((e) => e.type === "approval.resolved")).toMatchObject({ decidedBy: "cancel" });
    expect(events.at(-1)).toMatchObject({
      type: "terminal",
      outcome: "cancelled",
      cancellation: { reason: "cancelled at the terminal" },
    });
    expect(code).toBe(130);
  });

  it("refuses to start without a terminal, or with the prompt on stdin (exit 2, nothing launched)", async () => {
    const noTty = await runCli(["codex", "run", "--ask", "go"], { isTTY: { stdin: false, stderr: true } });
    expect(noTty.code).toBe(2);
    expect(noTty.stderr.text).toMatch(/--ask needs a terminal: .*stdin is not a terminal/s);
    expect(noTty.fake.launches).toHaveLength(0);
    const dash = await runCli(["codex", "run", "--ask", "-"], { isTTY: TTY, stdin: "prompt" });
    expect(dash.code).toBe(2);
    expect(dash.stderr.text).toContain("give the prompt as an argument");
  });
});

describe("limit flags", () => {
  it("--max-tool-calls stops the turn as cancelled (exit 130) with the limit in the terminal event", async () => {
    const tool = (id: string) =>
      fakeSteps.item("started", { type: "commandExecution", id, command: "ls", status: "inProgress" });
    const { code, stdout } = await runCli(["codex", "run", "--json", "--max-tool-calls", "1", "go"], {
      script: { turn: [fakeSteps.turnStarted(), tool("a"), tool("b"), { delayMs: 30_000 }] },
    });
    expect(code).toBe(130);
    expect(parseJsonLines(stdout.text).at(-1)).toMatchObject({
      type: "terminal",
      outcome: "cancelled",
      cancellation: { reason: "limit", limit: { name: "maxToolCalls", value: 1, reached: 2 } },
    });
  });

  it("--max-duration and --max-tokens reach the call; bad values are usage errors", async () => {
    const ok = await runCli(
      ["codex", "run", "--json", "--max-duration", "30", "--max-tokens", "1000", "go"],
      {
        script: { turn: fakeSteps.textTurn("fine") },
      },
    );
    expect(ok.code).toBe(0);
    for (const argv of [
      ["--max-tokens", "-3"],
      ["--max-tool-calls", "1.5"],
      ["--max-duration", "0"],
    ]) {
      const bad = await runCli(["codex", "run", ...argv, "go"]);
      expect(bad.code).toBe(2);
    }
  });
});
