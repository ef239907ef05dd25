/**
 * The form of a caller's schema Claude Code gets on its command line (`--json-schema=…`). Claude Code compiles it
 * with its own validator, which knows draft-07 only: a `$schema` naming another dialect (2019-09, 2020-12) makes
 * 2.1.332 exit ("no schema with key or ref …") and 2.0.77 / 2.1.112 drop the schema. Rennet checks the value
 * against the caller's schema as written, in its declared dialect, so Claude's copy does without `$schema`. Pure.
 */
import type { JsonSchemaObject } from "../../schema/json-schema.js";

/** `schema` as Claude Code gets it: without `$schema`. A new object when anything changed; never mutates. */
export function claudeSchemaForm(schema: JsonSchemaObject): JsonSchemaObject {
  if (!Object.hasOwn(schema, "$schema")) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
