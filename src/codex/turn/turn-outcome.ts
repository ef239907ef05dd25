import { errorMessage } from "../../errors.js";
import type { ParseFailure } from "../../harness/events.js";
import { excerpt } from "../../jsonl/frame-parser.js";
import type { TurnLimiter } from "../../session/limit-watch.js";
import { TerminalBodies, type TerminalBody } from "../../session/terminal-body.js";
import type { TurnEnd, TurnEventMapper } from "./event-mapper.js";
import { turnEndFailure } from "./turn-failures.js";
import type { TurnOwnership } from "./turn-ownership.js";
import type { CompletionCheck } from "./turn-runner-options.js";

/**
 * The terminal body of one Codex turn: what the turn produced and how it ended. Builds bodies only; the runner
 * decides when a turn ends and emits the one terminal frame.
 */
export class TurnOutcome extends TerminalBodies {
  /** The child's mapper once the child exists. */
  readonly #mapper: () => TurnEventMapper | undefined;
  readonly #completionCheck: CompletionCheck | undefined;

  constructor(
    ownership: TurnOwnership,
    limits: TurnLimiter,
    mapper: () => TurnEventMapper | undefined,
    completionCheck: CompletionCheck | undefined,
  ) {
    // stopped by a limit, the final message falls back to the text still streaming
    super(
      () => {
        const m = mapper();
        return {
          finalMessage: m?.finalMessage ?? (limits.hit ? m?.partialMessage : null) ?? null,
          usage: m?.usage ?? null,
          model: ownership.model,
          threadId: ownership.threadId,
        };
      },
      () => limits.hit,
    );
    this.#mapper = mapper;
    this.#completionCheck = completionCheck;
  }

  /**
   * The body of the owned turn's own end: completed (subject to the completion check; a check that throws
   * fails the turn with source `parse`), interrupted (codex's own interruption unless the runner was
   * `cancelling`), else failed with codex's error.
   */
  ofTurnEnd(end: TurnEnd, cancelling: boolean): TerminalBody {
    const mapper = this.#mapper();
    if (end.status === "completed") {
      const finalMessage = mapper?.finalMessage ?? null;
      let check: ReturnType<CompletionCheck> | undefined;
      try {
        check = this.#completionCheck?.(finalMessage);
      } catch (error) {
        return this.failed(uncheckedFailure(finalMessage, errorMessage(error)));
      }
      if (check && !check.ok) return this.failed(check.failure);
      return this.completed(check?.ok ? { value: check.value } : undefined);
    }
    if (end.status === "interrupted")
      return this.interrupted(cancelling, "the turn was interrupted by codex");
    return this.failed(turnEndFailure(end, mapper?.lastError ?? null));
  }
}

/** The failure of a turn whose completion check threw `cause` on its final message. */
function uncheckedFailure(finalMessage: string | null, cause: string): ParseFailure {
  const line = excerpt(finalMessage ?? "");
  return {
    source: "parse",
    message: `The final message could not be checked against the schema (${cause}); it starts with: ${JSON.stringify(line)}`,
    line,
    errors: [cause],
  };
}
