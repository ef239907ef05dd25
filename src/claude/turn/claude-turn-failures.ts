/** The failures of a Claude Code session that its `result` line does not decide, one pure function per cause. */
import type { Failure, ParseFailure, TurnFailure } from "../../harness/events.js";
import { errorMessage, isRennetError } from "../../errors.js";
import type { ChildGone } from "../../session/child-session.js";
import { cutLineNote } from "../../session/cut-line-note.js";
import { claudeExitFailure } from "../turn-end.js";
import { assertClaudeCallSupported, claudeCapabilities } from "../capabilities.js";

/** A step before the spawn (finding claude, the bypass check, the images, the temporary directory) failed. */
export function prepareFailure(error: unknown, command: string): Failure {
  const code = isRennetError(error) ? error.code : undefined;
  const errno = isOsError(error) ? error.code : null;
  return {
    source: "spawn",
    message: `claude was not started: ${errorMessage(error)}`,
    errno,
    command,
    ...(code === undefined ? {} : { code }),
  };
}

/** The started child is one Rennet does not drive (too old): the turn ends before it runs. */
function unusableClaudeFailure(error: unknown, command: string): Failure {
  const code = isRennetError(error) ? error.code : undefined;
  return {
    source: "spawn",
    message: errorMessage(error),
    errno: null,
    command,
    ...(code === undefined ? {} : { code }),
  };
}

/**
 * The failure for an init's version that cannot run the turn: older than the oldest supported release, or, for a
 * turn with approvals, older than the first that sends every permission prompt to the client. Null otherwise.
 */
export function unusableVersionFailure(
  version: string | null,
  approvals: boolean,
  command: string,
): Failure | null {
  try {
    assertClaudeCallSupported(claudeCapabilities(version), { approvals });
    return null;
  } catch (error) {
    return unusableClaudeFailure(error, command);
  }
}

/** The child went away before the turn's `result`: a failed spawn, or its exit (see `claudeExitFailure`). */
export function goneFailure(gone: ChildGone, command: string): Failure {
  const exit = gone.exit;
  if (exit?.type === "spawn-error")
    return { source: "spawn", message: exit.message, errno: exit.errno, command };
  const writeError = gone.closed?.type === "write-error" ? gone.closed.message : null;
  const failure = claudeExitFailure(
    exit === null ? null : { code: exit.code, signal: exit.signal },
    gone.stderrTail,
    writeError,
  );
  failure.message += cutLineNote(gone);
  return failure;
}

/**
 * Claude wrote a stdout line that is not a JSON object (or one longer than the line limit); `line` is the
 * transport's excerpt of it (its first 200 characters and how many more), kept as it is. No `errors`: they are a
 * structured output's schema violations, and Codex's failure for such a line has none either.
 */
export function invalidLineFailure(message: string, line: string): ParseFailure {
  return {
    source: "parse",
    message: `claude sent an invalid stream-json line: ${message}`,
    line,
  };
}

/** Claude refused the `initialize` control request that registers the session's app tools. */
export function appToolsRefusedFailure(error: string): TurnFailure {
  return {
    source: "turn",
    message: `claude refused to register the app tools (initialize control request): ${error}`,
    errorInfo: null,
    additionalDetails: null,
  };
}

/**
 * The model was reminded `reminders` times to call `StructuredOutput` and gave no value Claude Code took: Rennet
 * stopped the turn. `rejection` is Claude Code's answer to the last call it refused, if any.
 */
export function structuredOutputRefusedFailure(
  reminders: number,
  rejection: string | null = null,
): ParseFailure {
  const what =
    rejection === null
      ? "the model never called Claude Code's StructuredOutput tool"
      : `the model gave Claude Code's StructuredOutput tool no value matching the schema (Claude Code: ${rejection})`;
  const message = `${what} (reminded ${reminders} times); the turn was stopped`;
  return { source: "parse", message, line: "", errors: [message] };
}

/**
 * The failure of a structured-output turn whose `system/init` lists tools but no `StructuredOutput`: Claude Code
 * refused the schema (2.0.77 and 2.1.112 drop a schema their validator's strict mode refuses, e.g. an unknown
 * keyword or a `format` they do not know, and run the turn without the tool). Null when the tool is offered or
 * the init lists no tools.
 */
export function schemaRefusedFailure(tools: unknown): ParseFailure | null {
  if (!Array.isArray(tools) || tools.includes("StructuredOutput")) return null;
  const message =
    "Claude Code refused the schema: it offered the model no StructuredOutput tool (its JSON Schema validator " +
    "refuses e.g. an unknown keyword, and releases before 2.1.332 a format they do not know); the turn was " +
    "stopped. Remove custom keywords (x-…) and formats from the schema, or upgrade Claude Code";
  return { source: "parse", message, line: "", errors: [message] };
}

/** A Node system error: it carries `syscall` and a numeric `errno` beside its `E…` code (checked by shape). */
function isOsError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  if (typeof error !== "object" || error === null) return false;
  const e = error as NodeJS.ErrnoException;
  return typeof e.code === "string" && typeof e.errno === "number" && typeof e.syscall === "string";
}
