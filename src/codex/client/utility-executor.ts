/**
 * The utility executor: a one-shot Codex call whose final message is a JSON value of the caller's schema. It
 * runs on the same turn runner as the agentic session; this file only prepares the call (effort, strict
 * schema, completion check) and shapes the result. See docs/structured-output.md, "Utility calls".
 */
import { checkUtilitySchemaGiven } from "../../call/utility-result.js";
import type { ParseFailure } from "../../harness/events.js";
import type { CodexCallOptions, InternalCallOptions } from "./call-options.js";

export { toUtilityResult, type UtilityResult } from "../../call/utility-result.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { parseStructuredOutput, prepareStructuredOutput } from "../schema/structured-output.js";
import type { CompletionCheck } from "../turn/turn-runner-options.js";
import { type ReasoningEffort, validateReasoningEffort } from "./reasoning-effort.js";

/**
 * Options of `client.utility()` / `client.utilityStreamed()`. `S` is the schema's own type: written inline in
 * the call or `as const`, it gives `utility()` its value type (`InferSchema`).
 */
export interface UtilityCallOptions<S extends JsonSchemaObject = JsonSchemaObject> extends CodexCallOptions {
  /**
   * An ordinary JSON Schema (root `type: "object"`) for the answer. It is normalized to OpenAI strict form
   * for the model, and the answer is validated against it as given. An invalid or unsupported schema throws
   * `InvalidSchemaError` (`SCHEMA_INVALID`) or `UnsupportedSchemaError` (`SCHEMA_UNSUPPORTED`) before
   * anything starts.
   */
  schema: S;
  /** Reasoning effort for this call only (see {@link REASONING_EFFORTS}). Default: the model's own. */
  effort?: ReasoningEffort | undefined;
}

/**
 * Turns utility options into runner options: validates the effort, prepares the strict schema and installs
 * the completion check that parses the final message. Throws (`EFFORT_INVALID`, `SCHEMA_INVALID`,
 * `SCHEMA_UNSUPPORTED`) before anything is spawned. Pure apart from compiling the validator.
 */
export function prepareUtilityCall(options: UtilityCallOptions): InternalCallOptions {
  const { schema, effort, ...call } = options;
  const validEffort = effort === undefined ? undefined : validateReasoningEffort(effort);
  checkUtilitySchemaGiven(schema);
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
