/**
 * Structured output of a utility call: prepare the strict schema for `turn/start.outputSchema`, then turn the
 * final agent message back into a value of the caller's schema (parse, denormalize, validate with schemasafe).
 * See docs/structured-output.md.
 */
import { excerpt as excerptOf } from "../../jsonl/frame-parser.js";
import { DEFAULT_MAX_NESTING_DEPTH, exceedsNestingDepth } from "../../jsonl/json-nesting.js";
import { denormalizeValue, type DenormalizePlan } from "./denormalize.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { compileSchemaValidator } from "../../schema/schema-validator.js";
import { violationReport } from "../../schema/schema-errors.js";
import { normalizeSchemaForStrictMode } from "./strict-schema.js";
import { errorMessage } from "../../errors.js";

/** Everything a utility call needs before its turn starts. */
export interface PreparedStructuredOutput {
  /** The caller's schema, as given (never mutated). Validation runs against this. */
  readonly originalSchema: JsonSchemaObject;
  /** Strict-mode schema for `turn/start.outputSchema`. */
  readonly outputSchema: JsonSchemaObject;
  readonly plan: DenormalizePlan;
}

export type StructuredOutputParseResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      /** `no-message`: the turn produced no final message; `not-json`; `schema-violation`. */
      readonly reason: "no-message" | "not-json" | "schema-violation";
      /** Names the cause: the JSON error or the first violations, and quotes the start of the text. */
      readonly message: string;
      /** Every violation as `"<instancePath> <message>"` (`(root)` for the top level), or the JSON error. */
      readonly errors: string[];
      /** The start of the text: at most 200 characters, then `… (N more chars)` when cut. */
      readonly excerpt: string;
    };

/**
 * Checks the caller's schema against its dialect's meta-schema, then normalizes it for strict mode. Throws
 * `InvalidSchemaError` (`SCHEMA_INVALID`) or `UnsupportedSchemaError` (`SCHEMA_UNSUPPORTED`) before any turn is
 * started.
 */
export function prepareStructuredOutput(schema: JsonSchemaObject): PreparedStructuredOutput {
  compileSchemaValidator(schema); // a schema that is not an object is refused here, naming what it got
  const { schema: outputSchema, plan } = normalizeSchemaForStrictMode(schema);
  return { originalSchema: schema, outputSchema, plan };
}

/**
 * Parses the final agent message of a structured-output turn: `JSON.parse`, `denormalizeValue`, then validation
 * against the caller's original schema (compiled once per schema object). Never throws for bad model output;
 * throws `InvalidSchemaError` only if `originalSchema` itself cannot be compiled.
 */
export function parseStructuredOutput(
  text: string | null,
  originalSchema: JsonSchemaObject,
  plan: DenormalizePlan,
): StructuredOutputParseResult {
  const validate = compileSchemaValidator(originalSchema);
  if (text === null) {
    const message = "The turn ended without a final message, so there is no JSON to parse";
    return { ok: false, reason: "no-message", message, errors: [message], excerpt: "" };
  }
  const excerpt = excerptOf(text);
  // the mapping back and the validator recurse once per level: a deeper answer would exhaust the stack
  if (exceedsNestingDepth(text, DEFAULT_MAX_NESTING_DEPTH)) {
    const cause = `it nests deeper than ${DEFAULT_MAX_NESTING_DEPTH} levels of objects and arrays`;
    return {
      ok: false,
      reason: "not-json",
      message: `The final message is not a value Rennet can check (${cause}); it starts with: ${JSON.stringify(excerpt)}`,
      errors: [cause],
      excerpt,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const cause = errorMessage(error);
    return {
      ok: false,
      reason: "not-json",
      message: `The final message is not valid JSON (${cause}); it starts with: ${JSON.stringify(excerpt)}`,
      errors: [cause],
      excerpt,
    };
  }
  let value: unknown;
  let valid: boolean;
  try {
    value = denormalizeValue(parsed, plan);
    valid = validate(value) === true;
  } catch (error) {
    // A pathological schema (e.g. deep recursion) can throw while validating; report it, never crash the caller.
    const cause = errorMessage(error);
    return {
      ok: false,
      reason: "schema-violation",
      message: `Validation failed: ${cause}`,
      errors: [cause],
      excerpt,
    };
  }
  if (valid) return { ok: true, value };
  const { errors, summary } = violationReport(validate.errors ?? []);
  return {
    ok: false,
    reason: "schema-violation",
    message: `The final message does not match the output schema: ${summary}; it starts with: ${JSON.stringify(excerpt)}`,
    errors,
    excerpt,
  };
}
