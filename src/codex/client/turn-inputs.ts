import { InvalidTurnInputError } from "../../call/turn-inputs.js";

export { checkCwd, checkPrompt, InvalidTurnInputError, resolveImages } from "../../call/turn-inputs.js";

/** The reasoning summary modes codex accepts on `turn/start` (`summary`). */
export const REASONING_SUMMARIES = ["auto", "concise", "detailed", "none"] as const;
export type ReasoningSummary = (typeof REASONING_SUMMARIES)[number];

/** `reasoningSummary` checked against {@link REASONING_SUMMARIES}. Pure. */
export function validateReasoningSummary(value: unknown): ReasoningSummary {
  if (typeof value === "string" && (REASONING_SUMMARIES as readonly string[]).includes(value))
    return value as ReasoningSummary;
  throw new InvalidTurnInputError(
    "REASONING_SUMMARY_INVALID",
    `reasoningSummary ${JSON.stringify(value)} is not one of ${REASONING_SUMMARIES.join(", ")}`,
  );
}

/** What codex accepts as a thread id: a UUID, optionally prefixed `urn:uuid:`. */
const THREAD_ID =
  /^(urn:uuid:)?[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/** `resume` checked to be a thread id codex can look up, trimmed. Pure. */
export function validateResumeId(value: unknown): string {
  const id = typeof value === "string" ? value.trim() : value;
  if (typeof id === "string" && THREAD_ID.test(id)) return id;
  throw new InvalidTurnInputError(
    "RESUME_ID_INVALID",
    `resume ${JSON.stringify(value)} is not a thread id: give the threadId (a UUID) of a turn run with ` +
      "ephemeral: false (CLI: --keep-thread), from its terminal event",
  );
}
