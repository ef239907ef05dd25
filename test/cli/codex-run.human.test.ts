import { describe, expect, it } from "vitest";
import { FAKE_THREAD_ID, FAKE_TURN_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import { hasColour, runCli } from "./helpers/cli-harness.js";

const ids = { threadId: FAKE_THREAD_ID, turnId: FAKE_TURN_ID };

const busyTurn = [
  fakeSteps.turnStarted(),
  fakeSteps.notify("error", { error: { message: "Reconnecting... 1/5" }, willRetry: true, ...ids }),
  fakeSteps.item("started", {
    type: "commandExecution",
    id: "cmd_1",
    command: "ls -la",
    status: "inProgress",
  }),
  fakeSteps.notify("item/commandExecution/outputDelta", { itemId: "cmd_1", delta: "a.txt\nb.t", ...ids }),
  fakeSteps.notify("item/commandExecution/outputDelta", { itemId: "cmd_1", delta: "xt\n", ...ids }),
  fakeSteps.item("completed", {
    type: "commandExecution",
    id: "cmd_1",
    command: "ls -la",
    status: "failed",
    exitCode: 2,
  }),
  fakeSteps.item("started", {
    type: "fileChange",
    id: "fc_1",
    changes: [{ path: "src/a.ts", kind: { type: "update" } }],
    status: "inProgress",
  }),
  fakeSteps.item("completed", {
    type: "fileChange",
    id: "fc_1",
    changes: [{ path: "src/a.ts", kind: { type: "update" } }],
    status: "completed",
  }),
  fakeSteps.item("started", {
    type: "mcpToolCall",
    id: "mcp_1",
    server: "docs",
    tool: "search",
    status: "inProgress",
  }),
  fakeSteps.item("completed", {
    type: "mcpToolCall",
    id: "mcp_1",
    server: "docs",
    tool: "search",
    status: "completed",
  }),
  fakeSteps.notify("item/agentMessage/delta", {
    itemId: "x",
    delta: "intruder",
    threadId: FAKE_THREAD_ID,
    turnId: "turn_other",
  }),
  ...fakeSteps.agentMessage("msg_0", ["Looking", "..."], "commentary"),
  ...fakeSteps.agentMessage("msg_1", ["All ", "done."]),
  fakeSteps.tokenUsage({
    inputTokens: 1234,
    cachedInputTokens: 1000,
    outputTokens: 56,
    reasoningOutputTokens: 12,
    totalTokens: 1290,
  }),
  fakeSteps.turnCompleted("completed"),
];

describe("rennet codex run (human output)", () => {
  it("streams the assistant text to stdout and everything else to stderr", async () => {
    const { code, stdout, stderr } = await runCli(["codex", "run", "do things"], {
      script: { turn: busyTurn },
    });
    expect(code).toBe(0);
    expect(stdout.text).toBe("Looking...\nAll done.\n");
    const lines = stderr.text.split("\n");
    expect(lines).toEqual([
      "! Reconnecting... 1/5",
      "$ ls -la",
      "  │ a.txt",
      "  │ b.txt",
      "  ↳ exit 2",
      "✎ edit src/a.ts",
      "  ↳ completed",
      "⚙ mcp docs.search",
      "  ↳ completed",
      "· 1 file changed",
      "· 1 passthrough event (1 foreign, 0 unknown); see --json",
      "✓ completed · model fake-model · 1,234 in (1,000 cached) / 56 out (12 reasoning)",
      "",
    ]);
    expect(hasColour(stderr.text)).toBe(false);
  });

  it("prints a completed message that was never streamed, and ends it with a newline", async () => {
    const { stdout } = await runCli(["codex", "run", "hi"], {
      script: {
        turn: [
          fakeSteps.turnStarted(),
          fakeSteps.item("completed", {
            type: "agentMessage",
            id: "m",
            text: "whole answer",
            phase: "final_answer",
          }),
          fakeSteps.turnCompleted("completed"),
        ],
      },
    });
    expect(stdout.text).toBe("whole answer\n");
  });

  it("with `-` and a terminal on stdin, says on stderr that it reads the prompt there and how to end it", async () => {
    const script = { turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("completed")] };
    const tty = await runCli(["codex", "run", "-"], { script, stdin: "typed\n", isTTY: { stdin: true } });
    expect(tty.code).toBe(0);
    expect(tty.stderr.text).toContain("reading the prompt from stdin (end it with Ctrl-D on an empty line)");
    const piped = await runCli(["codex", "run", "-"], { script, stdin: "piped\n" });
    expect(piped.code).toBe(0);
    expect(piped.stderr.text).not.toContain("reading the prompt");
  });

  it("shows only the first lines of a long command output", async () => {
    const output = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    const { stderr } = await runCli(["codex", "run", "hi"], {
      script: {
        turn: [
          fakeSteps.turnStarted(),
          fakeSteps.item("started", {
            type: "commandExecution",
            id: "c",
            command: "seq 20",
            status: "inProgress",
          }),
          fakeSteps.notify("item/commandExecution/outputDelta", { itemId: "c", delta: output, ...ids }),
          fakeSteps.item("completed", {
            type: "commandExecution",
            id: "c",
            command: "seq 20",
            status: "completed",
            exitCode: 0,
          }),
          fakeSteps.turnCompleted("completed"),
        ],
      },
    });
    expect(stderr.text).toContain("  │ line 8\n  │ … 12 more lines\n  ↳ exit 0\n");
    expect(stderr.text).not.toContain("line 9");
  });

  it("ends a failed turn with the failure source and message", async () => {
    const { code, stderr, stdout } = await runCli(["codex", "run", "hi"], {
      script: {
        turn: [
          fakeSteps.turnStarted(),
          fakeSteps.turnCompleted("failed", {
            error: { message: "unexpected status 500", codexErrorInfo: "internalServerError" },
          }),
        ],
      },
    });
    expect(code).toBe(1);
    expect(stdout.text).toBe("");
    expect(stderr.text).toBe('✗ failed (turn): unexpected status 500\n  error info: "internalServerError"\n');
  });

  it("includes the exit code and the stderr tail when the app-server dies", async () => {
    const { code, stderr } = await runCli(["codex", "run", "hi"], {
      script: {
        stderr: "booting\npanic: config is broken\n",
        turn: [fakeSteps.turnStarted(), { exit: { code: 3 } }],
      },
    });
    expect(code).toBe(1);
    expect(stderr.text).toContain("✗ failed (exit): codex app-server exited with code 3");
    expect(stderr.text).toContain(
      "  app-server exit code 3\n  stderr (last lines):\n    booting\n    panic: config is broken\n",
    );
  });

  it("colours stderr and shows a spinner only on a terminal", async () => {
    const tty = await runCli(["codex", "run", "hi"], {
      script: { turn: fakeSteps.textTurn("Hi") },
      isTTY: { stderr: true },
    });
    expect(tty.code).toBe(0);
    expect(hasColour(tty.stderr.text)).toBe(true);
    expect(tty.stderr.text.startsWith("\r\x1b[36m⠋\x1b[39m starting codex")).toBe(true);
    expect(tty.stderr.text).toContain("\r\x1b[K");
    expect(tty.stdout.text).toBe("Hi\n");

    const noColorEnv = await runCli(["codex", "run", "hi"], {
      script: { turn: fakeSteps.textTurn("Hi") },
      isTTY: { stderr: true },
      env: { NO_COLOR: "1" },
    });
    expect(hasColour(noColorEnv.stderr.text)).toBe(false);
    expect(noColorEnv.stderr.text).toContain("✓ completed");

    const noColorFlag = await runCli(["codex", "run", "--no-color", "hi"], {
      script: { turn: fakeSteps.textTurn("Hi") },
      isTTY: { stderr: true },
    });
    expect(hasColour(noColorFlag.stderr.text)).toBe(false);
  });

  it("never shows the spinner or colour in --json mode, even on a terminal", async () => {
    const { stderr, stdout } = await runCli(["codex", "run", "--json", "hi"], {
      script: { turn: fakeSteps.textTurn("Hi") },
      isTTY: { stdout: true, stderr: true },
    });
    expect(stderr.text).toBe("");
    expect(stdout.text).not.toContain("\x1b");
  });
});
