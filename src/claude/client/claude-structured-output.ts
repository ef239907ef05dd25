import type { ParseFailure } from "../../harness/events.js";
import { excerpt } from "../../jsonl/frame-parser.js";
import { violationReport } from "../../schema/schema-errors.js";
import { compileSchemaValidator } from "../../schema/schema-validator.js";
import { UnsupportedSchemaError } from "../../schema/unsupported-schema-error.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import type { StructuredOutputCheck } from "../turn/claude-turn-options.js";
import { claudeSchemaForm } from "./claude-schema-form.js";

/** The longest single command-line argument Linux passes to a program (`MAX_ARG_STRLEN`, its NUL included). */
const MAX_ARGUMENT_BYTES = 131_071;

/** A structured-output call's schema prepared for Claude Code. */
export interface ClaudeStructuredOutput {
  /** The schema Claude Code gets (`--json-schema=…`), see {@link claudeSchemaForm}. */
  readonly jsonSchema: JsonSchemaObject;
  /** Validates a value against the caller's schema as written. */
  readonly check: StructuredOutputCheck;
}

/**
 * The schema Claude Code gets and the check of a structured-output turn's value: the caller's schema compiled
 * once (throws `SCHEMA_INVALID` before anything starts; `SCHEMA_UNSUPPORTED` when its root is no object, as
 * {@link claudeSchemaForm} reads it, or it is too long for Claude's command line), each value validated against it. Claude Code
 * validates the value too; this makes the guarantee Rennet's, on every version.
 */
export function prepareClaudeStructuredOutput(schema: JsonSchemaObject): ClaudeStructuredOutput {
  const validate = compileSchemaValidator(schema);
  const jsonSchema = claudeSchemaForm(schema);
  if (jsonSchema.type !== "object") throw rootNotObject(jsonSchema.type);
  const bytes = Buffer.byteLength(`--json-schema=${JSON.stringify(jsonSchema)}`);
  if (bytes > MAX_ARGUMENT_BYTES) throw tooLong(bytes);
  const check: StructuredOutputCheck = (value) => {
    if (validate(value)) return { ok: true, value };
    const { errors, summary } = violationReport(validate.errors ?? []);
    const failure: ParseFailure = {
      source: "parse",
      message: `Claude Code's structured output does not match the schema: ${summary}`,
      line: excerpt(JSON.stringify(value) ?? "undefined"),
      errors,
    };
    return { ok: false, failure };
  };
  return { jsonSchema, check };
}

/** Claude Code takes the schema as one argument (`--json-schema=…`): a longer one would fail to spawn (E2BIG). */
function tooLong(bytes: number): UnsupportedSchemaError {
  return new UnsupportedSchemaError(
    [
      {
        pointer: "#",
        message: `the schema is ${bytes} bytes as JSON; Claude Code takes it on its command line (--json-schema=…), where one argument holds at most ${MAX_ARGUMENT_BYTES} bytes: shorten descriptions or share repeated parts through $defs`,
      },
    ],
    "as Claude Code's structured output",
  );
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
