import type {
  CancelledTerminalEvent,
  Cancellation,
  CompletedTerminalEvent,
  EventBase,
  Failure,
  FailedTerminalEvent,
  ProjectTrust,
  TerminalEventBase,
  Usage,
} from "../harness/events.js";
import { hasMessage } from "../errors.js";

/** A terminal frame before the runner stamps it (`seq`, `sessionId`, `turnId`, `at`). */
export type TerminalBody =
  | Omit<CompletedTerminalEvent, keyof EventBase>
  | Omit<FailedTerminalEvent, keyof EventBase>
  | Omit<CancelledTerminalEvent, keyof EventBase>;

/** What the turn produced so far; every terminal frame carries it. */
export interface TurnSoFar {
  finalMessage: string | null;
  usage: Usage | null;
  model: string | null;
  threadId: string | null;
  /** The cwd's trust once decided. */
  trust?: ProjectTrust | null;
}

/** How a cancelled turn ended: interrupted by the agent, killed after the grace, or before a turn existed. */
export type CancelledVia = Cancellation["via"];

/** A completed turn; `structuredOutput` is set for a utility call whose answer passed its check. Pure. */
export function completedBody(turn: TurnSoFar, structuredOutput?: { value: unknown }): TerminalBody {
  const body: Omit<CompletedTerminalEvent, keyof EventBase> = {
    ...base(turn),
    outcome: "completed",
    failure: null,
    cancellation: null,
  };
  if (structuredOutput) body.structuredOutput = structuredOutput.value;
  return body;
}

/** A failed turn. Pure. */
export function failedBody(turn: TurnSoFar, failure: Failure): TerminalBody {
  return { ...base(turn), outcome: "failed", failure, cancellation: null };
}

/**
 * A cancelled turn; `reason` is described as text (an Error's message, a string, or JSON). A turn a limit
 * stopped passes the agent's own cancellation (`reason: "limit"` with its `limit`) as `cancellation`. Pure.
 */
export function cancelledBody(
  turn: TurnSoFar,
  via: CancelledVia,
  reason: unknown,
  cancellation?: Cancellation,
): TerminalBody {
  return {
    ...base(turn),
    outcome: "cancelled",
    failure: null,
    cancellation: cancellation ?? { via, reason: describeReason(reason) },
  };
}

function base(turn: TurnSoFar): Omit<TerminalEventBase, keyof EventBase> {
  return {
    type: "terminal",
    finalMessage: turn.finalMessage,
    usage: turn.usage,
    model: turn.model,
    threadId: turn.threadId,
    ...(turn.trust ? { trust: turn.trust } : {}),
  };
}

function describeReason(reason: unknown): string {
  if (hasMessage(reason)) return reason.message;
  if (reason === undefined) return "cancelled";
  return typeof reason === "string" ? reason : JSON.stringify(reason);
}
