/** How every harness's `run()` folds a session's stream into a promise: the same result, the same rejections. */
import type { HarnessEvent, TerminalEvent, Usage } from "../harness/events.js";
import { TurnCancelledError, TurnFailedError } from "../harness/errors.js";
import { RennetError } from "../errors.js";

/** What `run()` resolves with: the terminal frame of a completed turn. */
export interface TurnResult {
  finalMessage: string | null;
  usage: Usage | null;
  model: string | null;
  threadId: string | null;
  terminal: TerminalEvent;
}

/**
 * How `run()` and `utility()` end: reads `session`'s stream to its end (events are read as they come and
 * dropped) and settles its terminal frame (see {@link settle}) with the reason the session was cancelled with.
 */
export async function settleSession(
  session: { readonly events: AsyncIterable<HarnessEvent>; readonly cancelReason: unknown },
  signal: AbortSignal | undefined,
): Promise<TurnResult> {
  return settle(await lastTerminal(session.events), signal, session.cancelReason);
}

/** Reads a session's stream to its end and returns the terminal frame; nothing else is kept. */
async function lastTerminal(events: AsyncIterable<HarnessEvent>): Promise<TerminalEvent> {
  let terminal: TerminalEvent | null = null;
  for await (const event of events) if (event.type === "terminal") terminal = event;
  if (terminal === null)
    throw new RennetError("INTERNAL_ERROR", "the session stream ended without a terminal frame");
  return terminal;
}

/**
 * A terminal frame as `run()`'s outcome: the result of a completed turn; `signal.reason` when the caller's
 * signal cancelled it (and nothing else did first); {@link TurnCancelledError} for another cancellation;
 * {@link TurnFailedError} for a failure.
 */
function settle(
  terminal: TerminalEvent,
  signal: AbortSignal | undefined,
  cancelReason?: unknown,
): TurnResult {
  if (terminal.outcome === "completed") {
    return {
      finalMessage: terminal.finalMessage,
      usage: terminal.usage,
      model: terminal.model,
      threadId: terminal.threadId,
      terminal,
    };
  }
  if (terminal.outcome === "cancelled") {
    if (signal?.aborted && (cancelReason === undefined || cancelReason === signal.reason))
      throw signal.reason;
    throw new TurnCancelledError(terminal);
  }
  throw new TurnFailedError(terminal);
}
