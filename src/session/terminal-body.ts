import type {
  CancelledTerminalEvent,
  Cancellation,
  CompletedTerminalEvent,
  EventBase,
  Failure,
  FailedTerminalEvent,
  ProjectTrust,
  TerminalEventBase,
  TurnLimit,
  Usage,
} from "../harness/events.js";
import { hasMessage } from "../errors.js";
import { valueText } from "../value-text.js";

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
function completedBody(turn: TurnSoFar, structuredOutput?: { value: unknown }): TerminalBody {
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
function failedBody(turn: TurnSoFar, failure: Failure): TerminalBody {
  return { ...base(turn), outcome: "failed", failure, cancellation: null };
}

/**
 * A cancelled turn; `reason` is described as text (see {@link describeReason}). A turn a limit
 * stopped passes the agent's own cancellation (`reason: "limit"` with its `limit`) as `cancellation`. Pure.
 */
function cancelledBody(
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

/**
 * The terminal bodies of one session: what the turn produced (`produced`, read when a body is built) with the
 * cwd's trust, the reason given to `cancel()`, and the limit that stopped the turn (`limitHit`), if one did.
 * Builds bodies only; the runner decides when the turn ends and emits the one terminal frame.
 */
export class TerminalBodies {
  /** The reason given to `cancel()` (or the signal's reason), preserved as passed. */
  cancelReason: unknown = undefined;
  /** The cwd's trust, once decided. */
  trust: ProjectTrust | null = null;
  readonly #produced: () => Omit<TurnSoFar, "trust">;
  readonly #limitHit: () => TurnLimit | null;

  constructor(produced: () => Omit<TurnSoFar, "trust">, limitHit: () => TurnLimit | null) {
    this.#produced = produced;
    this.#limitHit = limitHit;
  }

  soFar(): TurnSoFar {
    return { ...this.#produced(), trust: this.trust };
  }

  completed(structuredOutput?: { value: unknown }): TerminalBody {
    return completedBody(this.soFar(), structuredOutput);
  }

  failed(failure: Failure): TerminalBody {
    return failedBody(this.soFar(), failure);
  }

  /** Cancelled `via`; a turn stopped by a limit names the limit, unless the agent's own `cancellation` is given. */
  cancelled(via: CancelledVia, cancellation?: Cancellation): TerminalBody {
    const limit = this.#limitHit();
    return cancelledBody(
      this.soFar(),
      via,
      this.cancelReason,
      cancellation ?? (limit ? { via, reason: "limit", limit } : undefined),
    );
  }

  /** The agent ended the turn as interrupted: unless the runner was `cancelling`, `agentReason` is the reason. */
  interrupted(cancelling: boolean, agentReason: string): TerminalBody {
    if (!cancelling) this.cancelReason = agentReason;
    return this.cancelled("interrupted");
  }
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

/** A cancel reason as text: an Error's message, a string as it is, else {@link valueText}. Never throws. */
function describeReason(reason: unknown): string {
  if (reason === undefined) return "cancelled";
  if (typeof reason === "string") return reason;
  try {
    if (hasMessage(reason)) return reason.message;
  } catch {
    // a `message` getter that throws: described as any other value
  }
  return valueText(reason);
}
