/**
 * The form of a caller's schema Claude Code gets on its command line (`--json-schema=…`). Claude Code compiles it
 * with its own validator, which knows draft-07 only: a `$schema` naming another dialect (2019-09, 2020-12) makes
 * 2.1.332 exit ("no schema with key or ref …") and 2.0.77 / 2.1.112 drop the schema. And it offers the schema as the
 * input schema of its `StructuredOutput` tool, which the Messages API takes only with `type: "object"` at the root.
 * Rennet checks the value against the caller's schema as written, in its declared dialect, so Claude's copy does
 * without `$schema` and states the object root outright. Pure.
 */
import { isRecord } from "../../json-record.js";
import { typeList, type JsonSchemaObject } from "../../schema/json-schema.js";
import { resolveLocalRef } from "../../schema/local-ref.js";

/** Where definitions live at the root; a root `$ref` inlined keeps them there. */
const DEFINITION_CONTAINERS = ["$defs", "definitions"] as const;

/**
 * `schema` as Claude Code gets it: without `$schema`, and with the object roots a Codex utility call takes written
 * as `type: "object"` (properties without a type, `type: ["object"]`, a root that is only a `$ref` to a local
 * definition: that definition inlined, the definitions kept). Any other root is left as it is, for the caller's
 * check to refuse. A new object when anything changed; never mutates.
 */
export function claudeSchemaForm(schema: JsonSchemaObject): JsonSchemaObject {
  const { $schema: _dialect, ...rest } = schema;
  const form = Object.hasOwn(schema, "$schema") ? rest : schema;
  if (typeof form.$ref !== "string") return withObjectType(form);
  const target = resolveLocalRef(form, form.$ref);
  if (!target.ok || target.target.$ref !== undefined) return form;
  const inlined: { [keyword: string]: unknown } = { ...target.target };
  for (const container of DEFINITION_CONTAINERS)
    if (isRecord(form[container])) inlined[container] = form[container];
  return withObjectType(inlined);
}

/** `type: "object"` for a root of one type, object, or of properties without a type. */
function withObjectType(schema: JsonSchemaObject): JsonSchemaObject {
  if (schema.type === "object") return schema;
  const types = typeList(schema);
  if (types?.length === 1 && types[0] === "object") return { ...schema, type: "object" };
  if (schema.type === undefined && schema.properties !== undefined) return { type: "object", ...schema };
  return schema;
}
