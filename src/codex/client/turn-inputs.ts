import { InvalidTurnInputError } from "../../call/turn-inputs.js";

export { checkCwd, checkPrompt, InvalidTurnInputError } from "../../call/turn-inputs.js";
export { resolveImageFiles } from "../../call/image-content.js";

/** How the shared input checks name Codex in their messages. */
export const CODEX_AGENT = "Codex";

/** The reasoning summary modes codex accepts on `turn/start` (`summary`). */
export const REASONING_SUMMARIES = ["auto", "concise", "detailed", "none"] as const;
/** A `reasoningSummary` codex accepts: how much of the model's reasoning it reports as `reasoning` events. */
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

/** A UUID's 32 hex digits in the hyphenated 8-4-4-4-12 form. */
const HYPHENATED_UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/**
 * What codex accepts as a thread id (its `ThreadId` parses the forms of Rust's `Uuid::parse_str`): the hyphenated
 * form, 32 hex digits without hyphens, the hyphenated form prefixed `urn:uuid:` or in braces. Codex refuses a
 * UUID with only some hyphens, or a hyphenless one after `urn:uuid:`, as "invalid group count".
 */
const THREAD_ID = new RegExp(
  `^(?:${HYPHENATED_UUID}|[0-9a-fA-F]{32}|urn:uuid:${HYPHENATED_UUID}|\\{${HYPHENATED_UUID}\\})$`,
);

/**
 * `resume` checked to be a thread id codex can look up ({@link THREAD_ID}), trimmed; `option` names it in the
 * message (`threadId` of `conversation()`). Pure.
 */
export function validateResumeId(value: unknown, option = "resume"): string {
  const id = typeof value === "string" ? value.trim() : value;
  if (typeof id === "string" && THREAD_ID.test(id)) return id;
  throw new InvalidTurnInputError(
    "RESUME_ID_INVALID",
    `${option} ${JSON.stringify(value) ?? String(value)} is not a thread id: give the threadId of a turn run with ` +
      "ephemeral: false (CLI: --keep-thread), from its terminal event: a UUID in its 8-4-4-4-12 form such as " +
      "0199f0fa-4e00-7000-8000-00000000cafe (32 hex digits without hyphens, urn:uuid: or braces also work)",
  );
}
