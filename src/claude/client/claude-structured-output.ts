import type { ParseFailure } from "../../harness/events.js";
import { compileSchemaValidator } from "../../schema/schema-validator.js";
import { UnsupportedSchemaError } from "../../schema/unsupported-schema-error.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import type { StructuredOutputCheck } from "../turn/claude-turn-options.js";

/** How many violations the failure's message names (all are in `errors`). */
const ERRORS_IN_MESSAGE = 5;

/**
 * The check of a structured-output turn's value: the caller's schema compiled once (throws `SCHEMA_INVALID`
 * before anything starts; `SCHEMA_UNSUPPORTED` when its root is not `type: "object"`), each value validated
 * against it. Claude Code validates the value too; this makes the guarantee Rennet's, on every version.
 */
export function structuredOutputCheck(schema: JsonSchemaObject): StructuredOutputCheck {
  const validate = compileSchemaValidator(schema);
  if (schema.type !== "object") throw rootNotObject(schema.type);
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

/**
 * Claude Code offers the schema as the input schema of its `StructuredOutput` tool, and the Messages API takes
 * only an object there.
 */
function rootNotObject(type: unknown): UnsupportedSchemaError {
  const found = type === undefined ? "no type" : JSON.stringify(type);
  return new UnsupportedSchemaError(
    [
      {
        pointer: "#",
        message: `the root must be type "object" (found ${found}): Claude Code takes the value as the input of its StructuredOutput tool, which is an object; wrap the value in an object property`,
      },
    ],
    "as Claude Code's structured output",
  );
}
