import type { TerminalEvent } from "./events.js";

/** The error `run()` rejects with when a turn ends `failed`. The terminal frame is kept on `terminal`. */
export class TurnFailedError extends Error {
  override readonly name = "TurnFailedError";
  /** Stable code: `TURN_FAILED`. The failure's own source is `terminal.failure.source`. */
  readonly code = "TURN_FAILED";
  constructor(readonly terminal: TerminalEvent) {
    super(
      terminal.failure
        ? `${terminal.failure.source} failure: ${terminal.failure.message}`
        : "the turn failed",
    );
  }
}

/** The error `run()` rejects with when a turn was cancelled by something other than the caller's signal. */
export class TurnCancelledError extends Error {
  override readonly name = "TurnCancelledError";
  readonly code = "TURN_CANCELLED";
  constructor(readonly terminal: TerminalEvent) {
    super(`the turn was cancelled: ${terminal.cancellation?.reason ?? "no reason given"}`);
  }
}
