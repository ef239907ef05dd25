import type { ParseFailure } from "../../harness/events.js";
import { compileSchemaValidator } from "../../schema/schema-validator.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import type { StructuredOutputCheck } from "../turn/claude-turn-options.js";

/** How many violations the failure's message names (all are in `errors`). */
const ERRORS_IN_MESSAGE = 5;

/**
 * The check of a structured-output turn's value: the caller's schema compiled once (throws
 * `SCHEMA_INVALID` before anything starts), each value validated against it. Claude Code validates the value
 * too; this makes the guarantee Rennet's, on every version.
 */
export function structuredOutputCheck(schema: JsonSchemaObject): StructuredOutputCheck {
  const validate = compileSchemaValidator(schema);
  return (value) => {
    if (validate(value)) return { ok: true, value };
    const errors = (validate.errors ?? []).map(
      (error) => `${error.instancePath === "" ? "(root)" : error.instancePath} ${error.message}`,
    );
    const text = JSON.stringify(value) ?? "undefined";
    const failure: ParseFailure = {
      source: "parse",
      message: `Claude Code's structured output does not match the schema: ${errors.slice(0, ERRORS_IN_MESSAGE).join("; ")}`,
      line: text.slice(0, 400),
      errors,
    };
    return { ok: false, failure };
  };
}
