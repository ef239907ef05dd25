import { RennetError } from "../errors.js";
import type { TerminalEvent } from "./events.js";

/** The error `run()` rejects with when a turn ends `failed`. The terminal frame is kept on `terminal`. */
export class TurnFailedError extends RennetError<"TURN_FAILED"> {
  override readonly name = "TurnFailedError";
  /** Stable code: `TURN_FAILED`. The failure's own source is `terminal.failure.source`. */
  constructor(readonly terminal: TerminalEvent) {
    super(
      "TURN_FAILED",
      terminal.failure
        ? `${terminal.failure.source} failure: ${terminal.failure.message}`
        : "the turn failed",
    );
  }
}

/** The error `run()` rejects with when a turn was cancelled by something other than the caller's signal. */
export class TurnCancelledError extends RennetError<"TURN_CANCELLED"> {
  override readonly name = "TurnCancelledError";
  constructor(readonly terminal: TerminalEvent) {
    super("TURN_CANCELLED", `the turn was cancelled: ${terminal.cancellation?.reason ?? "no reason given"}`);
  }
}
