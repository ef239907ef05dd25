import type { TerminalEvent, Usage } from "../harness/events.js";
import type { TurnResult } from "./settle.js";

/** What every harness's `utility()` resolves with. */
export interface UtilityResult<T = unknown> {
  /** The answer: parsed, valid against the caller's schema. */
  value: T;
  /** The final agent message the value came with. */
  finalMessage: string;
  usage: Usage | null;
  model: string | null;
  threadId: string | null;
  /** The terminal frame; `terminal.structuredOutput` is `value`. */
  terminal: TerminalEvent;
}

/** The resolved value of a completed utility call, from the settled turn result. */
export function toUtilityResult<T>(result: TurnResult): UtilityResult<T> {
  return {
    value: result.terminal.structuredOutput as T,
    finalMessage: result.finalMessage ?? "",
    usage: result.usage,
    model: result.model,
    threadId: result.threadId,
    terminal: result.terminal,
  };
}
