import { RennetError } from "../../errors.js";

/**
 * Reasoning efforts a utility call may ask for. codex 0.171.0 types `turn/start.effort` as an open string
 * (`ReasoningEffort = string` in `codex app-server generate-ts`) and forwards any non-empty value unchanged
 * as `reasoning.effort`; these are the effort names it knows (its model catalog lists `low` … `max`, the
 * Responses API adds `none` and `minimal`). `ultra` is left out on purpose: it is a codex mode ("automatic
 * task delegation"), not an effort — codex sent `reasoning.effort:"medium"` for it.
 */
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

/** An `effort` name codex knows (any non-empty string is passed on; these are the known ones). */
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** The `effort` of a utility call is not one of {@link REASONING_EFFORTS}. Thrown before anything starts. */
export class InvalidEffortError extends RennetError<"EFFORT_INVALID"> {
  override readonly name = "InvalidEffortError";
  constructor(readonly effort: unknown) {
    super(
      "EFFORT_INVALID",
      `Reasoning effort ${typeof effort === "string" ? JSON.stringify(effort) : String(effort)} is not supported; use one of ${REASONING_EFFORTS.join(", ")}, or leave it out to use the model's default`,
    );
  }
}

/** Returns `value` as a {@link ReasoningEffort}, or throws {@link InvalidEffortError}. Pure. */
export function validateReasoningEffort(value: unknown): ReasoningEffort {
  if (typeof value === "string" && (REASONING_EFFORTS as readonly string[]).includes(value)) {
    return value as ReasoningEffort;
  }
  throw new InvalidEffortError(value);
}
