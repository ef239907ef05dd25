import type { Failure, JsonRpcFailure, TurnFailure } from "../../harness/events.js";
import { errorMessage, isRennetError, type RennetError } from "../../errors.js";
import type { JsonRpcResponseError, RequestTimeoutError } from "../../jsonl/errors.js";
import type { ProcessExit } from "../../process/stdio-child.js";
import type { ChildGone } from "../../session/child-session.js";
import { cutLineNote } from "../../session/cut-line-note.js";
import type { AppServerNotReadyError } from "../app-server/app-server-not-ready.js";
import type { TurnEnd } from "./event-mapper.js";

/** The failure frames of a turn, one pure function per cause. */

/** A step before the spawn (discovery, the MCP inventory, the launch spec) rejected. */
export function prepareFailure(error: unknown, command: string): Failure {
  const message = errorMessage(error);
  const osErrno = isOsError(error) ? error.code : null;
  const code = isRennetError(error) ? error.code : undefined;
  return {
    source: "spawn",
    message: `codex was not started: ${message}`,
    errno: osErrno,
    command,
    ...(code === undefined ? {} : { code }),
  };
}

/**
 * The child started but Rennet will not drive it for this call: older than the oldest supported version, too old
 * for the call, not codex at all (`NOT_CODEX`), or about to load an untrusted repository's own config
 * (`UNTRUSTED_PROJECT_CONFIG`).
 */
function unusableCodexFailure(error: RennetError, command: string): Failure {
  return { source: "spawn", message: error.message, errno: null, command, code: error.code };
}

/** The child could not be started at all. */
function spawnErrorFailure(exit: { errno: string | null; message: string }, command: string): Failure {
  return { source: "spawn", message: exit.message, errno: exit.errno, command };
}

/** How codex says a thread to resume has no saved history (unknown here, or it ran ephemeral). */
const NO_ROLLOUT = /no rollout found/i;
/** How codex (0.171) says another codex is running a turn of the thread to resume (one writer per thread). */
const ACTIVE_WRITER = /already has an active writer/i;

/**
 * Codex answered one of our requests with an error. A `thread/resume` refused because codex has no history of
 * the thread is marked `refusal: "thread-not-found"`, one refused because another codex is writing the thread
 * `refusal: "thread-busy"`; each says what to do.
 */
export function refusedFailure(error: JsonRpcResponseError): JsonRpcFailure {
  const failure: JsonRpcFailure = {
    source: "jsonrpc",
    method: error.method,
    code: error.rpcCode,
    message: `${error.method} was refused by codex: ${error.rpcMessage}`,
    data: error.data,
  };
  if (error.method === "thread/resume" && NO_ROLLOUT.test(error.rpcMessage)) {
    failure.refusal = "thread-not-found";
    failure.message +=
      " (this CODEX_HOME has no history of that thread: it is unknown here, or its turns ran ephemeral; only a" +
      " thread started with ephemeral: false / --keep-thread can be resumed)";
  } else if (error.method === "thread/resume" && ACTIVE_WRITER.test(error.rpcMessage)) {
    failure.refusal = "thread-busy";
    failure.message +=
      " (another turn of this thread is running in another codex: resume it once that turn has ended)";
  }
  return failure;
}

/** One of our requests got no answer within its deadline; `stderrTail` is what codex wrote meanwhile, if anything. */
function stalledFailure(error: RequestTimeoutError, stderrTail = ""): JsonRpcFailure {
  const said = stderrTail.trim();
  return {
    source: "jsonrpc",
    method: error.method,
    code: null,
    message:
      `${error.method} stalled: no response within ${error.timeoutMs} ms; the process tree was killed` +
      (said ? `; codex's stderr: ${said.slice(-600)}` : ""),
    data: null,
    timeout: { step: error.method, timeoutMs: error.timeoutMs },
  };
}

/** Anything else thrown while driving the protocol: a defect, reported rather than crashing. */
function unexpectedFailure(error: unknown): JsonRpcFailure {
  return {
    source: "jsonrpc",
    method: "unknown",
    code: null,
    message: `unexpected error: ${errorMessage(error)}`,
    data: null,
  };
}

/** Codex wrote a line that is not a JSON-RPC frame. */
export function invalidLineFailure(message: string, line: string): Failure {
  return { source: "parse", message: `codex app-server sent an invalid line: ${message}`, line };
}

/** The owned `turn/completed` reported `failed` or a status this adapter does not know. */
export function turnEndFailure(end: TurnEnd, lastError: TurnEnd["error"]): TurnFailure {
  if (end.status !== "failed") {
    return {
      source: "turn",
      message: `turn/completed reported status ${JSON.stringify(end.status)}`,
      errorInfo: null,
      additionalDetails: null,
    };
  }
  const error = end.error ?? lastError;
  return {
    source: "turn",
    message: error?.message ?? "the turn failed without an error message",
    errorInfo: error?.codexErrorInfo ?? null,
    additionalDetails: error?.additionalDetails ?? null,
  };
}

/** Codex went away (see {@link exitFailure}). Pure. */
export function goneFailure(gone: ChildGone): Failure {
  const writeError = gone.closed?.type === "write-error" ? gone.closed.message : null;
  const failure = exitFailure(gone.exit, writeError, gone.stderrTail);
  failure.message += cutLineNote(gone);
  return failure;
}

/** The app-server never became ready: each way it did not is reported as the same cause would be later. Pure. */
function notReadyFailure(error: AppServerNotReadyError, command: string): Failure {
  const reason = error.reason;
  switch (reason.kind) {
    case "spawn":
      return reason.gone.exit?.type === "spawn-error"
        ? spawnErrorFailure(reason.gone.exit, command)
        : goneFailure(reason.gone);
    case "exited":
      return goneFailure(reason.gone);
    case "stalled":
      return stalledFailure(reason.timeout, reason.stderrTail);
    case "refused":
      return refusedFailure(reason.refusal);
    case "malformed":
      return unusableCodexFailure(reason.answer, command);
  }
}

/**
 * Codex went away before the turn completed: `exit` is null when it closed its output but had not exited
 * within the wait; `writeError` is set when our writes to its stdin failed first.
 */
function exitFailure(exit: ProcessExit | null, writeError: string | null, stderrTail: string): Failure {
  const code = exit?.type === "exited" ? exit.code : null;
  const signal = exit?.type === "exited" ? exit.signal : null;
  const how =
    exit === null
      ? "closed its output but did not exit"
      : signal !== null
        ? `was killed by ${signal}`
        : `exited with code ${code}`;
  const message = writeError
    ? `codex app-server stopped accepting input (${writeError}) and ${how} before the turn completed`
    : `codex app-server ${how} before the turn completed`;
  return { source: "exit", message, exitCode: code, signal, stderrTail };
}

/** A Node system error: it carries `syscall` and a numeric `errno` beside its `E…` code (checked by shape). */
function isOsError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  if (typeof error !== "object" || error === null) return false;
  const e = error as NodeJS.ErrnoException;
  return typeof e.code === "string" && typeof e.errno === "number" && typeof e.syscall === "string";
}

/**
 * How a failed handshake or thread/turn start ends the session; `null` when the child's departure is the cause
 * (a request still pending when its output closed), which the exit handlers report with the exit code, signal
 * and stderr; so is a request whose deadline passed while the child was going away (`departing`: it exited, or
 * closed its output). Errors are told apart by their `code`, not their class: the connection that rejected
 * them is loaded lazily, and a loader may have given it its own copy of the error classes. An error this
 * adapter does not expect is a defect and reported as one, unless the child is going away.
 */
export function startFailure(error: unknown, command: string, departing = false): Failure | null {
  if (isRennetError(error, "APP_SERVER_NOT_READY"))
    return notReadyFailure(error as AppServerNotReadyError, command);
  if (isRennetError(error, "CONNECTION_CLOSED")) return null;
  if (isRennetError(error, "JSONRPC_ERROR")) return refusedFailure(error as JsonRpcResponseError);
  if (isRennetError(error, "REQUEST_TIMEOUT"))
    return departing ? null : stalledFailure(error as RequestTimeoutError);
  if (
    isRennetError(error, "CODEX_UNAVAILABLE") ||
    isRennetError(error, "CODEX_UNSUPPORTED_VERSION") ||
    isRennetError(error, "NOT_CODEX") ||
    isRennetError(error, "UNTRUSTED_PROJECT_CONFIG")
  )
    return unusableCodexFailure(error, command);
  return departing ? null : unexpectedFailure(error);
}
