/**
 * How a Claude Code turn ended, decided from its `result` line (or from the process's exit when no `result`
 * came), in the terminal frame's own fields: `{outcome, failure, cancellation}` (and `structuredOutput` for a
 * completed structured-output turn), so that a terminal body is the turn so far spread with this. Pure.
 *
 * | `result` | outcome |
 * |---|---|
 * | `subtype:"success"`, `is_error` not true | completed (a structured-output turn without `structured_output`: failed, `parse`) |
 * | `subtype:"success"`, `is_error:true` (a provider error: `terminal_reason:"api_error"`, `api_error_status`) | failed, `turn` |
 * | `error_during_execution` after Rennet's interrupt | cancelled, `via:"interrupted"` |
 * | `error_during_execution` otherwise (e.g. `--resume` of a session Claude has no record of) | failed, `turn` |
 * | `error_max_budget_usd` | cancelled, `via:"interrupted"`, `reason:"limit"`, `limit.name:"maxCostUsd"` |
 * | `error_max_structured_output_retries` | failed, `parse` |
 * | `error_max_turns`, any other subtype | failed, `turn` |
 *
 * The subtype decides, not `is_error`: before 2.1.112 an interrupt or a budget stop reports `is_error: false`.
 */
import type { Cancellation, ExitFailure, Failure, ParseFailure, TurnFailure } from "../harness/events.js";
import { excerpt } from "../jsonl/frame-parser.js";
import type { ClaudeResultLine } from "./stream-json-lines.js";
import { turnCost } from "./claude-usage.js";

/** The terminal frame's outcome fields. */
export type ClaudeTurnEnd =
  | { outcome: "completed"; failure: null; cancellation: null; structuredOutput?: unknown }
  | { outcome: "failed"; failure: Failure; cancellation: null }
  | { outcome: "cancelled"; failure: null; cancellation: Cancellation };

/** What the session knows about the turn besides its `result`. */
export interface ClaudeTurnContext {
  /** Set when Rennet interrupted the turn: the reason it was given (`cancel(reason)`, the signal's). */
  interruptReason: string | null;
  /** The turn ran with `--json-schema`. */
  structuredOutput: boolean;
  /** Claude Code's answer to the last `StructuredOutput` call it refused (the value did not match), if any. */
  structuredOutputRejection?: string | null;
  /** The `--max-budget-usd` it ran with, if any. */
  maxBudgetUsd?: number;
  /** The session resumed a thread (`--resume`): a budget stop's cost is the turn's, not the thread's. */
  resumed?: boolean;
}

/** The decision for a `result` line. */
export function turnEndOfResult(result: ClaudeResultLine, context: ClaudeTurnContext): ClaudeTurnEnd {
  switch (result.subtype) {
    case "success":
      if (result.is_error === true) return failed(turnFailure(result, providerMessage(result)));
      if (context.structuredOutput && !Object.hasOwn(result, "structured_output"))
        return failed(
          parseFailure(result, withoutStructuredOutput(context.structuredOutputRejection ?? null)),
        );
      return context.structuredOutput
        ? {
            outcome: "completed",
            failure: null,
            cancellation: null,
            structuredOutput: result.structured_output,
          }
        : { outcome: "completed", failure: null, cancellation: null };
    case "error_during_execution":
      if (context.interruptReason !== null)
        return cancelled({ via: "interrupted", reason: context.interruptReason });
      return failed(turnFailure(result, errorsMessage(result, "Claude Code stopped the turn with an error")));
    case "error_max_budget_usd":
      return cancelled({
        via: "interrupted",
        reason: "limit",
        limit: {
          name: "maxCostUsd",
          value: budgetOf(result) ?? context.maxBudgetUsd ?? null,
          reached: turnCost(result, context.resumed === true),
        },
      });
    case "error_max_structured_output_retries":
      return failed(
        parseFailure(
          result,
          lastRejection(
            errorsMessage(result, "Claude Code gave up asking the model for structured output"),
            context.structuredOutputRejection ?? null,
          ),
        ),
      );
    case "error_max_turns":
      return failed(
        turnFailure(
          result,
          errorsMessage(result, "Claude Code stopped the turn at its maximum number of turns"),
        ),
      );
    default:
      return failed(
        turnFailure(
          result,
          errorsMessage(result, `Claude Code ended the turn with result ${JSON.stringify(result.subtype)}`),
        ),
      );
  }
}

/** Why a `--json-schema` turn that Claude Code ended as a success has no value. */
function withoutStructuredOutput(rejection: string | null): string {
  return rejection === null
    ? "Claude Code ended the turn without structured output: the model never called its StructuredOutput tool"
    : "Claude Code ended the turn without structured output: the model's StructuredOutput call did not match " +
        `the schema (Claude Code: ${rejection})`;
}

function lastRejection(message: string, rejection: string | null): string {
  return rejection === null ? message : `${message}; the last StructuredOutput call: ${rejection}`;
}

function failed(failure: Failure): ClaudeTurnEnd {
  return { outcome: "failed", failure, cancellation: null };
}

function cancelled(cancellation: Cancellation): ClaudeTurnEnd {
  return { outcome: "cancelled", failure: null, cancellation };
}

/** Claude's classification of a failed turn, untouched: `subtype`, `terminal_reason`, `api_error_status`. */
function turnFailure(result: ClaudeResultLine, message: string): TurnFailure {
  return {
    source: "turn",
    message,
    errorInfo: {
      subtype: result.subtype,
      terminal_reason: typeof result.terminal_reason === "string" ? result.terminal_reason : null,
      api_error_status: typeof result.api_error_status === "number" ? result.api_error_status : null,
    },
    additionalDetails: errorsOf(result).length > 0 ? { errors: errorsOf(result) } : null,
  };
}

function parseFailure(result: ClaudeResultLine, message: string): ParseFailure {
  const text = typeof result.result === "string" ? result.result : "";
  return { source: "parse", message, line: excerpt(text), errors: [message, ...errorsOf(result)] };
}

/** The provider's message as Claude worded it (`result` text of a failed request), else its errors. */
function providerMessage(result: ClaudeResultLine): string {
  if (typeof result.result === "string" && result.result.trim() !== "") return result.result;
  return errorsMessage(result, "Claude Code reported an error");
}

/** `[ede_diagnostic] …` entries are Claude's internal diagnostics, kept in the details but not the message. */
const DIAGNOSTIC = /^\[ede_diagnostic\]/;

function errorsOf(result: ClaudeResultLine): string[] {
  return Array.isArray(result.errors) ? result.errors.filter((e): e is string => typeof e === "string") : [];
}

function errorsMessage(result: ClaudeResultLine, fallback: string): string {
  const said = errorsOf(result).filter((error) => !DIAGNOSTIC.test(error));
  return said.length > 0 ? said.join("; ") : fallback;
}

/** `Reached maximum budget ($0.5)` → 0.5. */
function budgetOf(result: ClaudeResultLine): number | null {
  for (const error of errorsOf(result)) {
    const match = /maximum budget \(\$(\d+(?:\.\d+)?(?:e-?\d+)?)\)/i.exec(error);
    if (match) return Number(match[1]);
  }
  return null;
}

/** How the child left when no `result` came: its exit code or signal, or null when only its stdout closed. */
export interface ClaudeExit {
  code: number | null;
  signal: string | null;
}

/** What Claude Code's stderr says when it refuses to start, and what that means for the user. */
const STDERR_CAUSES: ReadonlyArray<readonly [RegExp, (match: RegExpExecArray) => string]> = [
  [
    /cannot be used with root\/sudo privileges/,
    () =>
      "Claude Code refuses bypassPermissions as root: run as a normal user, or set IS_SANDBOX=1 in its environment " +
      "inside a sandbox",
  ],
  [
    /error: unknown option '([^']+)'/,
    (match) => `this Claude Code does not know the option ${match[1]}: it is too old for this call`,
  ],
  [/Error parsing streaming input line/, () => "it could not parse a line written to its stdin"],
  [/Session ID \S+ is already in use/, () => "the session id is already in use"],
  [
    /--json-schema is not a valid JSON Schema: ([^\n]*)/,
    (match) =>
      `Claude Code refused the schema: ${match[1]}; change the schema to one its strict JSON Schema validator accepts`,
  ],
  // a resume of a session without a transcript: 2.1.112 and newer say it in a `result`, 2.0.77 on stderr only
  [
    /No conversation found with session ID: ([0-9a-fA-F-]{36})/,
    (match) => `No conversation found with session ID: ${match[1]}`,
  ],
];

/**
 * The failure of a turn whose child went away before its `result`: exit code or signal (both null when it
 * closed its output but did not exit within the wait), the stderr tail, and the cause where its stderr names
 * one (bypass refused as root, an unknown option, an unparsable input line, a session to resume not found, a
 * `--json-schema` it refuses).
 */
export function claudeExitFailure(
  exit: ClaudeExit | null,
  stderrTail: string,
  writeError: string | null = null,
): ExitFailure {
  const how =
    exit === null
      ? "closed its output but did not exit"
      : exit.signal !== null
        ? `was killed by ${exit.signal}`
        : `exited with code ${exit.code}`;
  let message = writeError
    ? `claude stopped accepting input (${writeError}) and ${how} before the turn completed`
    : `claude ${how} before the turn completed`;
  for (const [pattern, explain] of STDERR_CAUSES) {
    const match = pattern.exec(stderrTail);
    if (match) {
      message += `: ${explain(match)}`;
      break;
    }
  }
  return { source: "exit", message, exitCode: exit?.code ?? null, signal: exit?.signal ?? null, stderrTail };
}
