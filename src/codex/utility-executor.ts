/**
 * The utility executor: a one-shot Codex call whose final message is a JSON value of the caller's schema. It
 * runs on the same turn runner as the agentic session; this file only prepares the call (effort, strict
 * schema, completion check) and shapes the result. See docs/structured-output.md, "Utility calls".
 */
import { RennetError } from "../errors.js";
import type { ParseFailure, TerminalEvent, Usage } from "../harness/events.js";
import type { CodexCallOptions, InternalCallOptions, TurnResult } from "./call-options.js";
import type { JsonSchemaObject } from "./schema/json-schema.js";
import { parseStructuredOutput, prepareStructuredOutput } from "./schema/structured-output.js";
import type { CompletionCheck } from "./turn/turn-runner-options.js";

/**
 * Reasoning efforts a utility call may ask for. codex 0.171.0 types `turn/start.effort` as an open string
 * (`ReasoningEffort = string` in `codex app-server generate-ts`) and forwards any non-empty value unchanged
 * as `reasoning.effort`; these are the effort names it knows (its model catalog lists `low` … `max`, the
 * Responses API adds `none` and `minimal`). `ultra` is left out on purpose: it is a codex mode ("automatic
 * task delegation"), not an effort — codex sent `reasoning.effort:"medium"` for it.
 */
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

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

/** Options of `client.utility()` / `client.utilityStreamed()`. */
export interface UtilityCallOptions extends CodexCallOptions {
  /**
   * An ordinary JSON Schema (root `type: "object"`) for the answer. It is normalized to OpenAI strict form
   * for the model, and the answer is validated against it as given. An invalid or unsupported schema throws
   * `InvalidSchemaError` (`SCHEMA_INVALID`) or `UnsupportedSchemaError` (`SCHEMA_UNSUPPORTED`) before
   * anything starts.
   */
  schema: JsonSchemaObject;
  /** Reasoning effort for this call only (see {@link REASONING_EFFORTS}). Default: the model's own. */
  effort?: ReasoningEffort;
}

/** What `utility()` resolves with. */
export interface UtilityResult<T = unknown> {
  /** The answer: parsed, optional nulls removed, valid against the caller's schema. */
  value: T;
  /** The final agent message the value was parsed from. */
  finalMessage: string;
  usage: Usage | null;
  model: string | null;
  threadId: string | null;
  /** The terminal frame; `terminal.structuredOutput` is `value`. */
  terminal: TerminalEvent;
}

/**
 * Turns utility options into runner options: validates the effort, prepares the strict schema and installs
 * the completion check that parses the final message. Throws (`EFFORT_INVALID`, `SCHEMA_INVALID`,
 * `SCHEMA_UNSUPPORTED`) before anything is spawned. Pure apart from compiling the validator.
 */
export function prepareUtilityCall(options: UtilityCallOptions): InternalCallOptions {
  const { schema, effort, ...call } = options;
  const validEffort = effort === undefined ? undefined : validateReasoningEffort(effort);
  const prepared = prepareStructuredOutput(schema);
  const completionCheck: CompletionCheck = (finalMessage) => {
    const parsed = parseStructuredOutput(finalMessage, prepared.originalSchema, prepared.plan);
    if (parsed.ok) return { ok: true, value: parsed.value };
    const failure: ParseFailure = {
      source: "parse",
      message: parsed.message,
      line: parsed.excerpt,
      errors: parsed.errors,
    };
    return { ok: false, failure };
  };
  return {
    ...call,
    outputSchema: prepared.outputSchema,
    ...(validEffort !== undefined ? { effort: validEffort } : {}),
    completionCheck,
  };
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
