/**
 * A hostile stdout through the real framing against the in-memory fake claude: lines of another session, a
 * subagent's lines, duplicated and misordered `system/init` and `result`, control lines nobody asked for, odd
 * bytes and line endings, and a child that leaves without a `result`. Each keeps the event contract: one terminal,
 * last; `seq` 1..n; nothing dropped; no foreign line changes the owned turn.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import type { FakeClaudeScript, FakeClaudeStep } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps, FAKE_CLAUDE_SESSION_ID } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };
const OTHER = "0f0f0f0f-1111-4222-8333-444455556666";

async function run(script: FakeClaudeScript): Promise<{ events: HarnessEvent[]; terminal: TerminalEvent }> {
  const fake = new InMemoryClaude(script);
  const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
  const session = claude.runStreamed({ prompt: "p" });
  const events: HarnessEvent[] = [];
  for await (const event of session.events) events.push(event);
  const terminals = events.filter((e): e is TerminalEvent => e.type === "terminal");
  expect(terminals).toHaveLength(1);
  expect(events.at(-1)).toBe(terminals[0]);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(await session.result).toBe(terminals[0]);
  return { events, terminal: terminals[0] as TerminalEvent };
}

/** The steps with every line's `session_id` set to `sessionId`. */
function ofSession(steps: FakeClaudeStep[], sessionId: string): FakeClaudeStep[] {
  return steps.map((step) => ("send" in step ? { send: { ...step.send, session_id: sessionId } } : step));
}

const passthroughs = (events: HarnessEvent[], reason: "foreign" | "unknown") =>
  events.filter((e) => e.type === "passthrough" && e.reason === reason);

describe("a hostile Claude Code stdout", () => {
  it("lines of another session are foreign passthrough and change nothing of the owned turn", async () => {
    const foreign = ofSession(
      [
        claudeSteps.init(),
        ...claudeSteps.text("FOREIGN", { messageId: "msg_foreign" }),
        claudeSteps.result({ result: "FOREIGN" }),
      ],
      OTHER,
    );
    const { events, terminal } = await run({
      turn: [
        claudeSteps.init(),
        ...foreign,
        ...claudeSteps.text("owned", { messageId: "msg_owned" }),
        claudeSteps.result({ result: "owned" }),
      ],
    });
    expect(terminal).toMatchObject({
      outcome: "completed",
      finalMessage: "owned",
      threadId: FAKE_CLAUDE_SESSION_ID,
    });
    expect(passthroughs(events, "foreign")).toHaveLength(foreign.length);
    const texts = events.filter((e) => e.type === "text.delta" || e.type === "text.completed");
    expect(texts.every((e) => JSON.stringify(e).includes("owned"))).toBe(true);
    expect(events.filter((e) => e.type === "turn.started")).toHaveLength(1);
    expect(events.filter((e) => e.type === "usage")).toHaveLength(2);
  });

  it("a subagent's lines carry parentToolId and never become the owned text, usage or final message", async () => {
    const { events, terminal } = await run({
      turn: [
        claudeSteps.init(),
        ...claudeSteps.toolUse("toolu_task", "Task", { prompt: "sub" }),
        ...claudeSteps.text("SUBAGENT", { messageId: "msg_sub", parentToolId: "toolu_task" }),
        claudeSteps.toolResult("toolu_task", "sub done"),
        claudeSteps.result({ result: "owned" }),
      ],
    });
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "owned" });
    const sub = events.filter((e) => e.type === "text.completed" && e.text === "SUBAGENT");
    expect(sub).toEqual([expect.objectContaining({ parentToolId: "toolu_task" })]);
    expect(events.some((e) => e.type === "text.delta" && e.text.includes("SUBAGENT"))).toBe(false);
  });

  it("a second result and a second system/init change nothing", async () => {
    const { events, terminal } = await run({
      turn: [
        claudeSteps.init(),
        claudeSteps.init({ sessionId: OTHER }),
        claudeSteps.result({ result: "first" }),
        claudeSteps.result({ subtype: "error_during_execution", isError: true, result: "second" }),
      ],
    });
    expect(terminal).toMatchObject({
      outcome: "completed",
      finalMessage: "first",
      threadId: FAKE_CLAUDE_SESSION_ID,
    });
    expect(events.filter((e) => e.type === "turn.started")).toHaveLength(1);
  });

  it("a result before system/init ends the turn by that result", async () => {
    const { events, terminal } = await run({
      turn: [
        claudeSteps.result({ subtype: "error_during_execution", isError: true, errors: ["gone"] }),
        claudeSteps.init(),
      ],
    });
    expect(terminal).toMatchObject({ outcome: "failed", failure: { source: "turn" } });
    expect(events.some((e) => e.type === "turn.started")).toBe(false);
  });

  it("control lines nobody asked for: a request of an unknown subtype is answered with an error, a response to an id Rennet never sent is kept as foreign", async () => {
    const { events, terminal } = await run({
      turn: [
        claudeSteps.init(),
        claudeSteps.controlRequest("req-x", { subtype: "brand_new_request" }),
        {
          send: {
            type: "control_response",
            response: { subtype: "success", request_id: "never-sent", response: {} },
          },
        },
        { send: { type: "control_response", response: { subtype: "brand_new", request_id: "rennet-99" } } },
        ...claudeSteps.textTurn("ok").slice(1),
      ],
    });
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "ok" });
    // Rennet sent no control request before the result: both responses answer nothing of this session's
    const unasked = events.filter((e) => /never-sent|rennet-99/.test(JSON.stringify(e)));
    expect(unasked).toEqual([
      expect.objectContaining({ type: "passthrough", reason: "foreign" }),
      expect.objectContaining({ type: "passthrough", reason: "foreign" }),
    ]);
    expect(events.some((e) => JSON.stringify(e).includes("brand_new_request"))).toBe(true);
  });

  it.each([
    ["an array", "[1,2]"],
    ["a number", "42"],
    ["null", "null"],
    ["a string", '"text"'],
  ])("valid JSON that is %s is a parse failure naming what it was", async (_name, raw) => {
    const { terminal } = await run({ turn: [claudeSteps.init(), { raw: `${raw}\n` }, { hang: true }] });
    expect(terminal).toMatchObject({ outcome: "failed", failure: { source: "parse" } });
  });

  it("invalid UTF-8 and a NUL inside a string are read, CRLF endings are lines, and a line cut in many chunks is one line", async () => {
    const text = JSON.stringify({ type: "brand_new_line", bad: "\u0000" });
    const chunks = text.match(/.{1,3}/gs) ?? [];
    const { events, terminal } = await run({
      turn: [
        claudeSteps.init(),
        { raw: '{"type":"brand_new_line","x":"\xff\xfe"}\r\n' },
        ...chunks.map((chunk) => ({ raw: chunk })),
        { raw: "\n" },
        ...claudeSteps.textTurn("ok").slice(1),
      ],
    });
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "ok" });
    expect(passthroughs(events, "unknown")).toHaveLength(2);
  });

  it("a CR-only line ending is not a line break: the joined lines are a parse failure", async () => {
    const { terminal } = await run({
      turn: [claudeSteps.init(), { raw: '{"type":"keep_alive"}\r{"type":"keep_alive"}\n' }, { hang: true }],
    });
    expect(terminal).toMatchObject({ outcome: "failed", failure: { source: "parse" } });
  });

  it("exit 0 without a result is an exit failure; a stderr flood keeps only its tail", async () => {
    const flood = "x".repeat(1024 * 1024);
    const { terminal } = await run({
      turn: [claudeSteps.init(), { stderr: `${flood}\nTHE END\n` }, { exit: { code: 0 } }],
    });
    expect(terminal).toMatchObject({ outcome: "failed", failure: { source: "exit", exitCode: 0 } });
    const failure = terminal.outcome === "failed" ? terminal.failure : null;
    expect(failure && "stderrTail" in failure ? failure.stderrTail : "").toContain("THE END");
    expect(JSON.stringify(terminal).length).toBeLessThan(64 * 1024);
  });

  it("a 20 MB line under the cap is read whole", async () => {
    const big = { type: "brand_new_line", pad: "y".repeat(20 * 1024 * 1024) };
    const { events, terminal } = await run({
      turn: [claudeSteps.init(), { send: big }, ...claudeSteps.textTurn("ok").slice(1)],
    });
    expect(terminal).toMatchObject({ outcome: "completed" });
    expect(passthroughs(events, "unknown")).toHaveLength(1);
  });
});
