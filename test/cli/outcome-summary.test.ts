import { describe, expect, it } from "vitest";
import { createColors } from "../../src/cli/color.js";
import { summarizeTerminal } from "../../src/cli/outcome-summary.js";
import type { Failure, TerminalEvent } from "../../src/harness/events.js";
import { exitCodeForOutcome, formatCount, formatUsage } from "../../src/internal/test-hooks.js";
import { usage } from "../helpers/usage.js";

const plain = createColors(false);

function terminal(overrides: Partial<Record<keyof TerminalEvent, unknown>>): TerminalEvent {
  return {
    type: "terminal",
    seq: 9,
    harness: "codex",
    sessionId: "s",
    turnId: "t",
    at: "2026-01-01T00:00:00.000Z",
    outcome: "completed",
    finalMessage: "hi",
    usage: {
      inputTokens: 1234,
      cacheReadTokens: 1000,
      outputTokens: 56,
      reasoningTokens: 12,
      totalTokens: 1290,
    },
    model: "gpt-x",
    threadId: "thr",
    failure: null,
    cancellation: null,
    ...overrides,
  } as TerminalEvent;
}

function failed(failure: Failure, usage: TerminalEvent["usage"] = null): string[] {
  return summarizeTerminal(terminal({ outcome: "failed", failure, usage }), plain);
}

describe("outcome summary", () => {
  it("formats counts and usage independently of the locale", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatUsage(usage({ inputTokens: 10, outputTokens: 5 }))).toBe("10 in / 5 out");
  });

  it("completed: one line with model and usage", () => {
    expect(summarizeTerminal(terminal({}), plain)).toEqual([
      "✓ completed · model gpt-x · 1,234 in (1,000 cached) / 56 out (12 reasoning)",
    ]);
    expect(summarizeTerminal(terminal({ model: null, usage: null }), plain)).toEqual(["✓ completed"]);
  });

  it("cancelled: how and why", () => {
    const lines = summarizeTerminal(
      terminal({
        outcome: "cancelled",
        usage: null,
        cancellation: { via: "killed", reason: "received SIGINT" },
      }),
      plain,
    );
    expect(lines).toEqual(["⊘ cancelled (killed after the interrupt grace): received SIGINT · model gpt-x"]);
  });

  it("cancelled by a limit: names the limit as its flag, with what the turn reached", () => {
    const byLimit = (limit: unknown): string | undefined =>
      summarizeTerminal(
        terminal({
          outcome: "cancelled",
          usage: null,
          model: null,
          cancellation: { via: "interrupted", reason: "limit", limit },
        }),
        plain,
      )[0];
    expect(byLimit({ name: "maxToolCalls", value: 0, reached: 1 })).toBe(
      "⊘ cancelled (interrupted): limit --max-tool-calls 0 reached (1)",
    );
    expect(byLimit({ name: "maxTokens", value: 1000, reached: 1290 })).toBe(
      "⊘ cancelled (interrupted): limit --max-tokens 1,000 reached (1,290)",
    );
    expect(byLimit({ name: "maxDurationMs", value: 1500, reached: 1502 })).toBe(
      "⊘ cancelled (interrupted): limit --max-duration 1.5 s reached (1.502 s)",
    );
    expect(byLimit({ name: "maxCostUsd", value: 2, reached: null })).toBe(
      "⊘ cancelled (interrupted): limit --max-budget-usd $2 reached",
    );
  });

  it("turn failure: message, codex error info, timeout hint", () => {
    expect(
      failed({
        source: "turn",
        message: "the turn did not complete within 5000 ms",
        errorInfo: null,
        additionalDetails: null,
        timeout: { step: "turn", timeoutMs: 5000 },
      }),
    ).toEqual([
      "✗ failed (turn): the turn did not complete within 5000 ms",
      "  hint: raise --timeout (now 5 s) or leave it out",
    ]);
  });

  it("exit failure: exit detail and the last stderr lines", () => {
    const stderrTail = Array.from({ length: 20 }, (_, i) => `err ${i}`).join("\n") + "\n";
    const lines = failed({
      source: "exit",
      message: "codex app-server was killed by SIGKILL before the turn completed",
      exitCode: null,
      signal: "SIGKILL",
      stderrTail,
    });
    expect(lines[0]).toBe(
      "✗ failed (exit): codex app-server was killed by SIGKILL before the turn completed",
    );
    expect(lines[1]).toBe("  app-server killed by SIGKILL");
    expect(lines[2]).toBe("  stderr (last lines):");
    expect(lines.slice(3)).toEqual(Array.from({ length: 12 }, (_, i) => `    err ${i + 8}`));
  });

  it("spawn failure: errno and a hint; jsonrpc: method and code; parse: the input; usage when known", () => {
    expect(
      failed({ source: "spawn", message: "could not start /x", errno: "ENOENT", command: "/x" }),
    ).toEqual([
      "✗ failed (spawn): could not start /x",
      "  command: /x (ENOENT)",
      "  hint: pass the codex executable with --codex-bin PATH or RENNET_CODEX_BIN, or put `codex` on PATH",
    ]);
    expect(
      failed({
        source: "jsonrpc",
        method: "turn/start",
        code: -32600,
        message: "turn/start was refused",
        data: null,
      }),
    ).toEqual(["✗ failed (jsonrpc): turn/start was refused", "  turn/start: JSON-RPC error -32600"]);
    expect(
      failed(
        { source: "parse", message: "bad line", line: "{oops\nmore" },
        usage({ inputTokens: 1, outputTokens: 2 }),
      ),
    ).toEqual(["✗ failed (parse): bad line", "  input: {oops more", "  model gpt-x · 1 in / 2 out"]);
  });

  it("colours only when asked", () => {
    const [line] = summarizeTerminal(terminal({}), createColors(true));
    expect(line).toContain("\x1b[32m✓ completed\x1b[39m");
  });

  it("maps outcomes to exit codes", () => {
    expect(exitCodeForOutcome("completed")).toBe(0);
    expect(exitCodeForOutcome("failed")).toBe(1);
    expect(exitCodeForOutcome("cancelled")).toBe(130);
  });
});
