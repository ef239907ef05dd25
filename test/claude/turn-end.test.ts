import { describe, expect, it } from "vitest";
import type { ClaudeResultLine } from "../../src/claude/stream-json-lines.js";
import { claudeExitFailure, turnEndOfResult, type ClaudeTurnContext } from "../../src/claude/turn-end.js";
import { mapCapture } from "./claude-captures.js";

const plain: ClaudeTurnContext = { interruptReason: null, structuredOutput: false };

function resultOf(name: string): ClaudeResultLine {
  const result = mapCapture(name).mapper.result;
  if (result === null) throw new Error(`${name} has no result line`);
  return result;
}

describe("turnEndOfResult on real results", () => {
  it("completes a successful turn", () => {
    expect(turnEndOfResult(resultOf("text"), plain)).toEqual({
      outcome: "completed",
      failure: null,
      cancellation: null,
    });
    expect(turnEndOfResult(resultOf("text@2.0.77"), plain).outcome).toBe("completed");
  });

  it("fails a provider error at source turn with the provider's message and Claude's classification", () => {
    expect(turnEndOfResult(resultOf("e500noretry"), plain)).toEqual({
      outcome: "failed",
      cancellation: null,
      failure: {
        source: "turn",
        message: expect.stringMatching(/^API Error: 500 loopback internal error\./),
        errorInfo: { subtype: "success", terminal_reason: "api_error", api_error_status: 500 },
        additionalDetails: null,
      },
    });
    expect(turnEndOfResult(resultOf("e401noretry"), plain).failure).toEqual(
      expect.objectContaining({
        message: "Invalid API key · Fix external API key",
        errorInfo: { subtype: "success", terminal_reason: "api_error", api_error_status: 401 },
      }),
    );
    // 2.0.77: no terminal_reason, no api_error_status, the raw body in the text
    expect(turnEndOfResult(resultOf("e500noretry@2.0.77"), plain).failure).toEqual(
      expect.objectContaining({
        source: "turn",
        message: expect.stringContaining("loopback internal error"),
        errorInfo: { subtype: "success", terminal_reason: null, api_error_status: null },
      }),
    );
  });

  it("cancels an interrupted turn (also on 2.0.77, whose result says is_error false)", () => {
    const interrupted = { ...plain, interruptReason: "user pressed stop" };
    for (const name of ["interrupt_hang", "interrupt_bash", "interrupt_hang@2.0.77"])
      expect(turnEndOfResult(resultOf(name), interrupted)).toEqual({
        outcome: "cancelled",
        failure: null,
        cancellation: { via: "interrupted", reason: "user pressed stop" },
      });
  });

  it("fails error_during_execution that Rennet did not cause, with Claude's errors as the message", () => {
    expect(turnEndOfResult(resultOf("resume-unknown"), plain).failure).toEqual({
      source: "turn",
      message: "No conversation found with session ID: 5f0e7a51-0000-4000-8000-000000000000",
      errorInfo: { subtype: "error_during_execution", terminal_reason: null, api_error_status: null },
      additionalDetails: {
        errors: ["No conversation found with session ID: 5f0e7a51-0000-4000-8000-000000000000"],
      },
    });
    // an interrupt-shaped result without our interrupt: only diagnostics, so the generic message
    expect(turnEndOfResult(resultOf("interrupt_hang"), plain).failure?.message).toBe(
      "Claude Code stopped the turn with an error",
    );
  });

  it("cancels a budget stop as a limit, naming the budget and the cost reached", () => {
    expect(turnEndOfResult(resultOf("budget"), plain)).toEqual({
      outcome: "cancelled",
      failure: null,
      cancellation: {
        via: "interrupted",
        reason: "limit",
        limit: { name: "maxCostUsd", value: 0.5, reached: 10.000015999999999 },
      },
    });
    // 2.0.77 says nothing in errors: the budget comes from the context
    expect(
      turnEndOfResult(resultOf("budget@2.0.77"), { ...plain, maxBudgetUsd: 0.5 }).cancellation?.limit,
    ).toEqual({
      name: "maxCostUsd",
      value: 0.5,
      reached: 14.2500255,
    });
  });

  it("completes a structured-output turn with its value and fails one without structured_output at source parse", () => {
    const schema = { ...plain, structuredOutput: true };
    expect(turnEndOfResult(resultOf("structured"), schema)).toEqual({
      outcome: "completed",
      failure: null,
      cancellation: null,
      structuredOutput: { answer: 42, ok: true },
    });
    expect(turnEndOfResult(resultOf("nostructured"), schema)).toEqual({
      outcome: "failed",
      cancellation: null,
      failure: {
        source: "parse",
        message: expect.stringContaining("never called its StructuredOutput tool"),
        line: "Still refusing.",
        errors: [expect.stringContaining("StructuredOutput")],
      },
    });
    // a turn without a schema does not look for one
    expect(turnEndOfResult(resultOf("nostructured"), plain).outcome).toBe("completed");
    // Claude Code refused the model's value: its words are the cause
    const refused = {
      ...schema,
      structuredOutputRejection: "Output does not match required schema: /a: must be number",
    };
    expect(turnEndOfResult(resultOf("nostructured"), refused).failure).toMatchObject({
      source: "parse",
      message: expect.stringMatching(
        /StructuredOutput call did not match the schema \(Claude Code: Output does not match required schema: \/a: must be number\)$/,
      ),
    });
    expect(
      turnEndOfResult({ type: "result", subtype: "error_max_structured_output_retries" }, refused).failure,
    ).toMatchObject({
      message:
        "Claude Code gave up asking the model for structured output; the last StructuredOutput call: Output does not match required schema: /a: must be number",
    });
  });
});

describe("turnEndOfResult on other subtypes", () => {
  const line = (subtype: string, extra: Record<string, unknown> = {}): ClaudeResultLine => ({
    type: "result",
    subtype,
    ...extra,
  });

  it("fails error_max_turns and an unknown subtype at source turn, error_max_structured_output_retries at parse", () => {
    expect(turnEndOfResult(line("error_max_turns"), plain).failure).toEqual(
      expect.objectContaining({
        source: "turn",
        message: "Claude Code stopped the turn at its maximum number of turns",
      }),
    );
    expect(turnEndOfResult(line("error_from_the_future", { errors: ["x happened"] }), plain).failure).toEqual(
      expect.objectContaining({
        source: "turn",
        message: "x happened",
        additionalDetails: { errors: ["x happened"] },
      }),
    );
    expect(turnEndOfResult(line("error_from_the_future"), plain).failure?.message).toBe(
      'Claude Code ended the turn with result "error_from_the_future"',
    );
    expect(
      turnEndOfResult(line("error_max_structured_output_retries", { result: "nope" }), plain).failure,
    ).toEqual(expect.objectContaining({ source: "parse", line: "nope" }));
  });

  it("a parse failure's line is the result text's first 200 characters and how many more, as on Codex", () => {
    const text = `${"a".repeat(200)}${"b".repeat(800)}`;
    const failure = turnEndOfResult(
      line("error_max_structured_output_retries", { result: text }),
      plain,
    ).failure;
    expect(failure).toMatchObject({ source: "parse", line: `${"a".repeat(200)}… (800 more chars)` });
  });

  it("a success after an interrupt that came too late is still completed", () => {
    expect(
      turnEndOfResult(line("success", { result: "x" }), { ...plain, interruptReason: "stop" }).outcome,
    ).toBe("completed");
  });

  it("an error result without text falls back to its errors", () => {
    expect(
      turnEndOfResult(line("success", { is_error: true, errors: ["boom"] }), plain).failure?.message,
    ).toBe("boom");
    expect(turnEndOfResult(line("success", { is_error: true }), plain).failure?.message).toBe(
      "Claude Code reported an error",
    );
  });
});

describe("claudeExitFailure", () => {
  it("names the exit code, the signal, or an output that closed without an exit", () => {
    expect(claudeExitFailure({ code: 1, signal: null }, "")).toEqual({
      source: "exit",
      message: "claude exited with code 1 before the turn completed",
      exitCode: 1,
      signal: null,
      stderrTail: "",
    });
    expect(claudeExitFailure({ code: null, signal: "SIGKILL" }, "").message).toBe(
      "claude was killed by SIGKILL before the turn completed",
    );
    expect(claudeExitFailure(null, "", "EPIPE").message).toBe(
      "claude stopped accepting input (EPIPE) and closed its output but did not exit before the turn completed",
    );
  });

  it("explains the refusals Claude Code writes to stderr", () => {
    expect(
      claudeExitFailure(
        { code: 1, signal: null },
        "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n",
      ).message,
    ).toContain("set IS_SANDBOX=1");
    expect(
      claudeExitFailure({ code: 1, signal: null }, "error: unknown option '--effort'\n").message,
    ).toContain("does not know the option --effort");
    expect(
      claudeExitFailure(
        { code: 1, signal: null },
        "Error parsing streaming input line (type=unknown, 16 chars): SyntaxError",
      ).message,
    ).toContain("could not parse a line written to its stdin");
  });

  it("names the session a resume did not find (2.0.77 says it on stderr only, without a result)", () => {
    const id = "0b8b5b2e-8d0f-4c1a-9c55-3f0f3c7a1d11";
    expect(
      claudeExitFailure({ code: 1, signal: null }, `No conversation found with session ID: ${id}\n`).message,
    ).toBe(
      `claude exited with code 1 before the turn completed: No conversation found with session ID: ${id}`,
    );
  });
});
