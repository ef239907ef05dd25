import type { SteerInput } from "./approvals.js";
import type { HarnessEvent, TerminalEvent } from "./events.js";

/**
 * One running turn of a coding-agent harness. `events` yields every event once, ending with the terminal
 * event; `result` settles after the stream has ended and the child process tree is gone.
 */
export interface HarnessSession {
  /** Rennet's id for this session; every event carries it as `sessionId`. */
  readonly id: string;
  /** The event stream. Iterate it once; stopping early (`break`) cancels the turn. */
  readonly events: AsyncIterable<HarnessEvent>;
  /** The terminal event. Never rejects: failures and cancellations are outcomes, not exceptions. */
  readonly result: Promise<TerminalEvent>;
  /** Asks the turn to stop (see docs/events.md, "Cancellation"). Does nothing once the turn has ended. */
  cancel(reason?: unknown): void;
  /**
   * Sends guidance into the running turn (text, or text and image inputs); waits for a turn still starting.
   * Resolves once the agent accepted it; rejects with `SteerError` (`TURN_NOT_RUNNING`, `STEER_UNSUPPORTED`,
   * `STEER_REFUSED`, `STEER_INPUT_INVALID`). See docs/approvals.md.
   */
  steer(input: string | readonly SteerInput[]): Promise<void>;
}
