/** The in-memory fake `claude`: what it writes maps to well-formed events, and it ends the way Claude Code does. */
import { describe, expect, it } from "vitest";
import { ClaudeEventMapper } from "../../src/claude/event-mapper.js";
import { endSessionRequest, interruptRequest, userMessage } from "../../src/claude/stdin-messages.js";
import type { EventBody } from "../../src/harness/events.js";
import type { StdioChild } from "../../src/process/stdio-child.js";
import type { FakeClaudeScript } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps, FAKE_CLAUDE_SESSION_ID } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { ofType } from "../claude/claude-captures.js";
import { expectWellFormed } from "../helpers/well-formed.js";

/** Starts the fake and reads what it writes, line by line, through the event mapper. */
function start(script: FakeClaudeScript = {}, args: string[] = ["-p"]) {
  const fake = new InMemoryClaude(script);
  const child: StdioChild = fake.launcher({ command: "claude", args });
  const lines: Record<string, unknown>[] = [];
  const invalid: string[] = [];
  const mapper = new ClaudeEventMapper();
  const events: EventBody[] = [];
  let closed!: () => void;
  const stdoutClosed = new Promise<void>((resolve) => (closed = resolve));
  child.transport.start({
    frame: (line) => {
      lines.push(line);
      events.push(...mapper.map(line).events);
    },
    invalid: (_message, line) => invalid.push(line),
    closed: () => closed(),
  });
  const waitFor = async (predicate: () => boolean): Promise<void> => {
    for (let i = 0; i < 500 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
    expect(predicate()).toBe(true);
  };
  return { fake, child, lines, invalid, mapper, events, stdoutClosed, waitFor };
}

describe("InMemoryClaude", () => {
  it("runs a default text turn after the first user message and exits 0 on stdin EOF", async () => {
    const { fake, child, events, mapper, stdoutClosed } = start();
    child.transport.send(userMessage({ text: "hi" }));
    child.transport.endOutput();
    expect(await child.exit).toEqual({ type: "exited", code: 0, signal: null });
    await stdoutClosed;
    expectWellFormed(events);
    expect(mapper.finalMessage).toBe("ok");
    expect(mapper.sessionId).toBe(FAKE_CLAUDE_SESSION_ID);
    expect(fake.peer.linesOf("user")).toEqual([userMessage({ text: "hi" })]);
  });

  it("writes nothing before the first user message, as Claude Code does", async () => {
    const { child, lines } = start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines).toEqual([]);
    await child.terminate();
  });

  it("plays a Bash turn whose events pair and carry the exit status", async () => {
    const { child, events } = start({
      turn: claudeSteps.bashTurn("exit 3", { output: "boom", exitCode: 3 }, "Bash done."),
    });
    child.transport.send(userMessage({ text: "run it" }));
    child.transport.endOutput();
    await child.exit;
    expectWellFormed(events);
    expect(ofType(events, "tool.completed")).toEqual([
      expect.objectContaining({ itemId: "toolu_fake_1", tool: "command", status: "failed", exitCode: 3 }),
    ]);
    expect(ofType(events, "tool.output")).toEqual([expect.objectContaining({ text: "boom" })]);
    expect(ofType(events, "text.delta").map((e) => e.itemId)).toEqual(["msg_fake_2:0"]);
  });

  it("exits 1 on EOF after an error result, like Claude Code", async () => {
    const { child } = start({
      turn: [claudeSteps.init(), ...claudeSteps.apiError(500, "API Error: 500 boom")],
    });
    child.transport.send(userMessage({ text: "x" }));
    child.transport.endOutput();
    expect(await child.exit).toEqual({ type: "exited", code: 1, signal: null });
  });

  it("keeps running a turn after stdin EOF and exits when it is done", async () => {
    const { child, lines } = start({
      turn: [claudeSteps.init(), { delayMs: 30 }, ...claudeSteps.textTurn("late").slice(1)],
    });
    child.transport.send(userMessage({ text: "x" }));
    child.transport.endOutput();
    await child.exit;
    expect(lines.at(-1)).toEqual(expect.objectContaining({ type: "result", result: "late" }));
  });

  it("answers an interrupt at once, drops the rest of the turn and ends it interrupted", async () => {
    const { child, lines, events, waitFor } = start({
      turn: [claudeSteps.init(), { delayMs: 60_000 }, ...claudeSteps.text("never")],
    });
    child.transport.send(userMessage({ text: "x" }));
    await waitFor(() => lines.length === 1);
    child.transport.send(interruptRequest("int-1"));
    await waitFor(() => lines.some((line) => line.type === "result"));
    expect(lines.map((line) => line.type)).toEqual(["system", "control_response", "user", "result"]);
    expect(lines[1]).toEqual({
      type: "control_response",
      response: { subtype: "success", request_id: "int-1", response: { still_queued: [] } },
    });
    expect(ofType(events, "text.delta")).toEqual([]);
    child.transport.endOutput();
    expect((await child.exit).type === "exited" && (await child.exit)).toEqual(
      expect.objectContaining({ code: 1 }),
    );
  });

  it("answers an interrupt while idle and nothing more; end_session ends the fake with 0", async () => {
    const { child, lines, waitFor } = start({ onStdinEnd: "ignore" });
    child.transport.send(userMessage({ text: "x" }));
    await waitFor(() => lines.some((line) => line.type === "result"));
    const before = lines.length;
    child.transport.send(interruptRequest("int-2"));
    await waitFor(() => lines.length === before + 1);
    expect(lines.at(-1)).toEqual(expect.objectContaining({ type: "control_response" }));
    child.transport.send(endSessionRequest("end-1"));
    expect(await child.exit).toEqual({ type: "exited", code: 0, signal: null });
  });

  it("answers an unknown control request with Claude's error and follows scripted replies", async () => {
    const { child, lines, waitFor } = start({
      controlReplies: {
        interrupt: { error: "cannot interrupt now" },
        set_model: { response: { model: "m" } },
      },
    });
    child.transport.send({
      type: "control_request",
      request_id: "q1",
      request: { subtype: "no_such_subtype" },
    });
    child.transport.send({ type: "control_request", request_id: "q2", request: { subtype: "interrupt" } });
    child.transport.send({
      type: "control_request",
      request_id: "q3",
      request: { subtype: "set_model", model: "m" },
    });
    await waitFor(() => lines.length === 3);
    expect(lines.map((line) => line.response)).toEqual([
      { subtype: "error", request_id: "q1", error: "Unsupported control request subtype: no_such_subtype" },
      { subtype: "error", request_id: "q2", error: "cannot interrupt now" },
      { subtype: "success", request_id: "q3", response: { model: "m" } },
    ]);
    await child.terminate();
  });

  it("sends its own control request and waits for the client's answer", async () => {
    const { child, lines, fake, waitFor } = start({
      turn: [
        claudeSteps.init(),
        claudeSteps.controlRequest("perm-1", {
          subtype: "can_use_tool",
          tool_name: "Bash",
          input: { command: "ls" },
        }),
        { awaitControlResponse: "perm-1" },
        claudeSteps.result(),
      ],
    });
    child.transport.send(userMessage({ text: "x" }));
    await waitFor(() => lines.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines).toHaveLength(2);
    child.transport.send({
      type: "control_response",
      response: { subtype: "success", request_id: "perm-1", response: { behavior: "allow" } },
    });
    await waitFor(() => lines.length === 3);
    expect(fake.peer.linesOf("control_response")).toHaveLength(1);
    await child.terminate();
  });

  it("exits 1 naming a stdin line that is not JSON, as Claude Code does", async () => {
    const { fake, child, lines } = start();
    fake.launches[0]?.writeStdin("not json at all\n");
    expect(await child.exit).toEqual({ type: "exited", code: 1, signal: null });
    expect(child.stderrTail()).toBe(
      "Error parsing streaming input line (type=unknown, 15 chars): SyntaxError\n",
    );
    expect(lines).toEqual([]);
  });

  it("runs startup steps before reading stdin (a refusal on stderr and exit 1), and prints its version", async () => {
    const refusal =
      "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n";
    const { fake, child, lines } = start({ startup: [{ stderr: refusal }, { exit: { code: 1 } }] });
    expect(await child.exit).toEqual({ type: "exited", code: 1, signal: null });
    expect(child.stderrTail()).toBe(refusal);
    expect(fake.launches[0]?.stderr).toBe(refusal);
    expect(lines).toEqual([]);
    const version = start({ version: "2.0.77" }, ["--version"]);
    await version.stdoutClosed;
    expect(version.invalid).toEqual(["2.0.77 (Claude Code)"]);
    expect(await version.child.exit).toEqual({ type: "exited", code: 0, signal: null });
  });

  it("hangs on request, runs later turns from nextTurn, and records a terminate", async () => {
    const { fake, child, lines, waitFor } = start({
      turn: claudeSteps.textTurn("one"),
      nextTurn: [
        claudeSteps.result({ result: "two" }),
        { hang: true },
        claudeSteps.result({ result: "never" }),
      ],
    });
    child.transport.send(userMessage({ text: "1" }));
    child.transport.send(userMessage({ text: "2" }));
    await waitFor(() => lines.filter((line) => line.type === "result").length === 2);
    child.transport.endOutput();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.launches[0]?.terminated).toBe(false);
    await child.terminate();
    expect(fake.launches[0]?.terminated).toBe(true);
    expect(lines.filter((line) => line.type === "result").map((line) => line.result)).toEqual(["one", "two"]);
  });
});
