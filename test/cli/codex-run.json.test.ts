import { describe, expect, it } from "vitest";
import type { TerminalEvent } from "../../src/harness/events.js";
import { FAKE_THREAD_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import { parseJsonLines, runCli } from "./helpers/cli-harness.js";

const toolTurn = [
  fakeSteps.turnStarted(),
  fakeSteps.item("started", {
    type: "commandExecution",
    id: "cmd_1",
    command: "ls -la",
    status: "inProgress",
  }),
  fakeSteps.notify("item/commandExecution/outputDelta", {
    itemId: "cmd_1",
    delta: "a.txt\n",
    threadId: FAKE_THREAD_ID,
    turnId: "turn_fake_0001",
  }),
  fakeSteps.item("completed", {
    type: "commandExecution",
    id: "cmd_1",
    command: "ls -la",
    status: "completed",
    exitCode: 0,
  }),
  fakeSteps.notify("item/agentMessage/delta", {
    itemId: "x",
    delta: "intruder",
    threadId: FAKE_THREAD_ID,
    turnId: "turn_other",
  }),
  ...fakeSteps.agentMessage("msg_1", ["Done", "."]),
  fakeSteps.turnCompleted("completed"),
];

describe("rennet codex run --json", () => {
  it("prints exactly one event per line on stdout and nothing else, ending with the terminal event", async () => {
    const { code, stdout, stderr } = await runCli(["codex", "run", "--json", "list the files"], {
      script: { turn: toolTurn },
    });
    expect(code).toBe(0);
    const events = parseJsonLines(stdout.text);
    expect(events.length).toBeGreaterThan(5);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
    const terminal = events.at(-1) as TerminalEvent;
    expect(terminal.type).toBe("terminal");
    expect(terminal.outcome).toBe("completed");
    expect(terminal.finalMessage).toBe("Done.");
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        "session.started",
        "tool.started",
        "tool.output",
        "tool.completed",
        "passthrough",
      ]),
    );
    // no human decorations anywhere
    expect(stdout.text).not.toContain("✓");
    expect(stderr.text).toBe("");
  });

  it("on a terminal, C1 controls and bidi overrides from the model are JSON escapes: the same events, inert", async () => {
    const text = "hi \u009b2J\u202eevil\u2028\u007f";
    const { code, stdout } = await runCli(["codex", "run", "--json", "x"], {
      script: { turn: fakeSteps.textTurn(text) },
      isTTY: { stdout: true },
    });
    expect(code).toBe(0);
    expect(stdout.text).toContain("hi \\u009b2J\\u202eevil\\u2028\\u007f");
    expect(stdout.text).not.toMatch(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    const terminal = parseJsonLines(stdout.text).at(-1) as TerminalEvent;
    expect(terminal.finalMessage).toBe(text);
  });

  it("prints the failed terminal frame and exits 1 when the turn fails", async () => {
    const { code, stdout } = await runCli(["codex", "run", "--json", "hi"], {
      script: {
        turn: [
          fakeSteps.turnStarted(),
          fakeSteps.turnCompleted("failed", {
            error: { message: "model exploded", codexErrorInfo: "internalServerError" },
          }),
        ],
      },
    });
    expect(code).toBe(1);
    const terminal = parseJsonLines(stdout.text).at(-1) as TerminalEvent;
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({
      source: "turn",
      message: "model exploded",
      errorInfo: "internalServerError",
    });
  });

  it("passes --cwd (absolute), --model and the prompt to codex", async () => {
    const { code, fake } = await runCli(
      ["codex", "run", "--json", "--cwd", ".", "--model", "gpt-x", "do it"],
      {
        script: { turn: fakeSteps.textTurn("ok") },
        cwd: "/",
      },
    );
    expect(code).toBe(0);
    const threadStart = fake.peer.requestsOf("thread/start")[0]?.params as Record<string, unknown>;
    expect(threadStart).toMatchObject({ cwd: "/", model: "gpt-x" });
    const turnStart = fake.peer.requestsOf("turn/start")[0]?.params as Record<string, unknown>;
    expect(turnStart.input).toEqual([{ type: "text", text: "do it" }]);
    expect(fake.launches[0]?.spec.cwd).toBe("/");
  });

  it("threads are ephemeral unless --keep-thread is given", async () => {
    const ephemeralOf = async (args: string[]) => {
      const { code, fake } = await runCli(["codex", "run", "--json", ...args, "hi"], {
        script: { turn: fakeSteps.textTurn("ok") },
      });
      expect(code).toBe(0);
      return (fake.peer.requestsOf("thread/start")[0]?.params as Record<string, unknown>).ephemeral;
    };
    expect(await ephemeralOf([])).toBe(true);
    expect(await ephemeralOf(["--keep-thread"])).toBe(false);
  });

  it("--timeout becomes the overall turn deadline: a turn that never ends fails with a timeout", async () => {
    const { code, stdout } = await runCli(["codex", "run", "--json", "--timeout", "0.05", "hi"], {
      script: { turn: [fakeSteps.turnStarted()] },
    });
    expect(code).toBe(1);
    const terminal = parseJsonLines(stdout.text).at(-1) as TerminalEvent;
    expect(terminal.failure).toMatchObject({ source: "turn", timeout: { step: "turn", timeoutMs: 50 } });
  });
});
