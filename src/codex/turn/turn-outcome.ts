import type { Failure, ProjectTrust } from "../../harness/events.js";
import type { TurnLimiter } from "../../session/limit-watch.js";
import {
  cancelledBody,
  completedBody,
  failedBody,
  type CancelledVia,
  type TerminalBody,
  type TurnSoFar,
} from "../../session/terminal-body.js";
import type { TurnEnd, TurnEventMapper } from "./event-mapper.js";
import { turnEndFailure } from "./turn-failures.js";
import type { TurnOwnership } from "./turn-ownership.js";
import type { CompletionCheck } from "./turn-runner-options.js";

/**
 * The terminal body of one Codex turn: what the turn produced and how it ended. Builds bodies only; the runner
 * decides when a turn ends and emits the one terminal frame.
 */
export class TurnOutcome {
  /** The cwd's trust, once the start sequence decided it. */
  trust: ProjectTrust | null = null;
  /** The reason given to `cancel()` (or the signal's reason), preserved as passed. */
  cancelReason: unknown = undefined;
  readonly #ownership: TurnOwnership;
  readonly #limits: TurnLimiter;
  /** The child's mapper once the child exists. */
  readonly #mapper: () => TurnEventMapper | undefined;
  readonly #completionCheck: CompletionCheck | undefined;

  constructor(
    ownership: TurnOwnership,
    limits: TurnLimiter,
    mapper: () => TurnEventMapper | undefined,
    completionCheck: CompletionCheck | undefined,
  ) {
    this.#ownership = ownership;
    this.#limits = limits;
    this.#mapper = mapper;
    this.#completionCheck = completionCheck;
  }

  /** What the turn produced; stopped by a limit, its final message falls back to the text still streaming. */
  soFar(): TurnSoFar {
    const mapper = this.#mapper();
    return {
      finalMessage: mapper?.finalMessage ?? (this.#limits.hit ? mapper?.partialMessage : null) ?? null,
      usage: mapper?.usage ?? null,
      model: this.#ownership.model,
      threadId: this.#ownership.threadId,
      trust: this.trust,
    };
  }

  failed(failure: Failure): TerminalBody {
    return failedBody(this.soFar(), failure);
  }

  /** Cancelled `via`; a turn stopped by a limit names the limit. */
  cancelled(via: CancelledVia): TerminalBody {
    const limit = this.#limits.hit;
    return cancelledBody(
      this.soFar(),
      via,
      this.cancelReason,
      limit ? { via, reason: "limit", limit } : undefined,
    );
  }

  /**
   * The body of the owned turn's own end: completed (subject to the completion check), interrupted (codex's
   * own interruption unless the runner was `cancelling`), else failed with codex's error.
   */
  ofTurnEnd(end: TurnEnd, cancelling: boolean): TerminalBody {
    const mapper = this.#mapper();
    if (end.status === "completed") {
      const check = this.#completionCheck?.(mapper?.finalMessage ?? null);
      if (check && !check.ok) return this.failed(check.failure);
      return completedBody(this.soFar(), check?.ok ? { value: check.value } : undefined);
    }
    if (end.status === "interrupted") {
      if (!cancelling) this.cancelReason = "the turn was interrupted by codex";
      return this.cancelled("interrupted");
    }
    return this.failed(turnEndFailure(end, mapper?.lastError ?? null));
  }
}
