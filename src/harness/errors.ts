import { RennetError } from "../errors.js";
import type { CancelledTerminalEvent, FailedTerminalEvent } from "./events.js";

/** The error `run()` rejects with when a turn ends `failed`. The terminal frame is kept on `terminal`. */
export class TurnFailedError extends RennetError<"TURN_FAILED"> {
  override readonly name = "TurnFailedError";
  /** Stable code: `TURN_FAILED`. The failure's own source is `terminal.failure.source`. */
  constructor(readonly terminal: FailedTerminalEvent) {
    super("TURN_FAILED", `${terminal.failure.source} failure: ${terminal.failure.message}`);
  }
}

/** The error `run()` rejects with when a turn was cancelled by something other than the caller's signal. */
export class TurnCancelledError extends RennetError<"TURN_CANCELLED"> {
  override readonly name = "TurnCancelledError";
  constructor(readonly terminal: CancelledTerminalEvent) {
    super("TURN_CANCELLED", `the turn was cancelled: ${terminal.cancellation.reason}`);
  }
}

/**
 * `session.steer()` could not deliver its guidance: `TURN_NOT_RUNNING` (the turn has ended, is ending, or the
 * session ended before it started), `STEER_UNSUPPORTED` (this version of the agent cannot steer a running
 * turn), `STEER_REFUSED` (the agent answered with an error; `details.agentMessage` keeps its text) or
 * `STEER_INPUT_INVALID` (empty text, an input of no known type).
 */
export class SteerError extends RennetError<
  "TURN_NOT_RUNNING" | "STEER_UNSUPPORTED" | "STEER_REFUSED" | "STEER_INPUT_INVALID"
> {
  override readonly name = "SteerError";
}

/** The reason a turn is cancelled with when the app's approval handler answered `cancel` (`APPROVAL_CANCELLED`). */
export function approvalCancelled(): RennetError {
  return new RennetError("APPROVAL_CANCELLED", "the app's approval handler cancelled the turn");
}
