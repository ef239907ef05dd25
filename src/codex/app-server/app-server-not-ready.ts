import { RennetError } from "../../errors.js";
import type { JsonRpcResponseError, RequestTimeoutError } from "../../jsonl/errors.js";
import type { ProcessExit } from "../../process/stdio-child.js";
import type { ChildGone } from "../../session/child-session.js";
import type { NotCodexError } from "../not-codex-error.js";

/**
 * Why an app-server never became ready: `spawn` (it could not be started), `exited` (it went away before
 * answering `initialize`), `stalled` (no answer within the deadline; after its stdin was ended it got a
 * bounded wait to say why), `refused` (an error answer), `malformed` (an answer that is not codex's).
 */
export type AppServerNotReady =
  | { kind: "spawn"; gone: ChildGone }
  | { kind: "exited"; gone: ChildGone }
  | { kind: "stalled"; gone: ChildGone | null; timeout: RequestTimeoutError; stderrTail: string }
  | { kind: "refused"; refusal: JsonRpcResponseError }
  | { kind: "malformed"; answer: NotCodexError };

/**
 * An app-server that did not become ready (`APP_SERVER_NOT_READY`); `reason.kind` says how, and the message
 * says it in one line that ends with codex's own `Error:` line when it printed one.
 */
export class AppServerNotReadyError extends RennetError<"APP_SERVER_NOT_READY"> {
  override readonly name = "AppServerNotReadyError";
  constructor(readonly reason: AppServerNotReady) {
    const cause =
      reason.kind === "refused" ? reason.refusal : reason.kind === "malformed" ? reason.answer : undefined;
    super("APP_SERVER_NOT_READY", describeNotReady(reason), cause === undefined ? {} : { cause });
  }
}

/** One line on why the app-server is not ready. Pure. */
function describeNotReady(reason: AppServerNotReady): string {
  switch (reason.kind) {
    case "spawn":
    case "exited":
      return `${describeExit(reason.gone.exit)} before answering initialize${stderrLine(reason.gone.stderrTail)}`;
    case "stalled":
      return `no initialize response within ${reason.timeout.timeoutMs} ms${stderrLine(reason.stderrTail)}`;
    case "refused":
      return `initialize was answered with an error: ${reason.refusal.rpcMessage} (${reason.refusal.rpcCode})`;
    case "malformed":
      return reason.answer.message;
  }
}

function describeExit(exit: ProcessExit | null): string {
  if (!exit) return "closed its output";
  if (exit.type === "spawn-error") return `could not start (${exit.errno ?? "error"}: ${exit.message})`;
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** Codex's `Error: …` line when it printed one (a backtrace may follow it), else its last line. */
function stderrLine(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const last = lines.findLast((line) => line.startsWith("Error: ")) ?? lines.at(-1);
  if (!last) return "";
  return `: ${last.length > 240 ? `${last.slice(0, 240)}…` : last}`;
}
