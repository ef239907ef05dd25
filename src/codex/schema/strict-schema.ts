/**
 * Normalization of caller JSON Schemas into the strict form that Codex sends to the model as
 * `text.format = {type: "json_schema", strict: true, schema}`, plus the plan that maps the model's answer back
 * to the caller's shape (denormalize.ts, docs/structured-output.md).
 *
 * Pure: no I/O, no validator, never mutates its input.
 */
import { isRecord } from "../../json-record.js";
import type { DenormalizeNode, DenormalizePlan } from "./denormalize.js";
import { typeList, type JsonSchemaObject } from "../../schema/json-schema.js";
import { parseDefinitionRef, resolveLocalRef } from "../../schema/local-ref.js";
import { StrictNormalizer } from "./strict-normalizer.js";
import { UnsupportedSchemaError } from "../../schema/unsupported-schema-error.js";

export interface StrictSchemaResult {
  /** The strict-mode schema to send as `turn/start.outputSchema`. A fresh object; the input is untouched. */
  readonly schema: JsonSchemaObject;
  readonly plan: DenormalizePlan;
}

type Mutable = { [keyword: string]: unknown };

/**
 * Converts an ordinary JSON Schema into OpenAI strict structured-output form and returns the plan that maps
 * answers back (see docs/structured-output.md). Throws `UnsupportedSchemaError` (`SCHEMA_UNSUPPORTED`) listing
 * every construct strict mode cannot express, each with its JSON pointer and the fix.
 */
export function normalizeSchemaForStrictMode(schema: JsonSchemaObject): StrictSchemaResult {
  if (!isRecord(schema)) {
    throw new UnsupportedSchemaError([
      { pointer: "#", message: 'the output schema must be a JSON Schema object with type "object"' },
    ]);
  }
  const normalizer = new StrictNormalizer(schema);
  const definitions = normalizer.normalizeDefinitions();

  let rootSource: JsonSchemaObject = schema;
  let rootPointer = "#";
  let rootNode: DenormalizeNode;
  let rootSchema: Mutable;
  if (typeof schema.$ref === "string") {
    // A root that only refers to a definition (as some generators emit) is inlined: strict mode wants an object root.
    const { node } = normalizer.normalize(schema, "#", false);
    const target = resolveLocalRef(schema, schema.$ref);
    rootSource = target.ok ? target.target : {};
    rootPointer = schema.$ref;
    rootNode = node;
    const named = parseDefinitionRef(schema.$ref);
    const normalized = named ? definitions[named.container] : undefined;
    const inlined =
      named && normalized && Object.hasOwn(normalized, named.name) ? normalized[named.name] : undefined;
    rootSchema = isRecord(inlined) ? { ...inlined } : {};
  } else {
    const { schema: normalized, node } = normalizer.normalize(schema, "#", false);
    rootNode = node;
    rootSchema = { ...normalized };
  }

  const rootTypes = typeList(rootSource) ?? (rootSource.properties !== undefined ? ["object"] : null);
  if (rootSource.anyOf !== undefined) {
    normalizer.issue(
      rootPointer,
      "the root cannot be anyOf in strict mode; wrap the alternatives in an object property",
    );
  } else if (rootTypes === null || rootTypes.length !== 1 || rootTypes[0] !== "object") {
    normalizer.issue(
      rootPointer,
      `the root must be type "object" in strict mode (found ${rootTypes === null ? "no type" : JSON.stringify(rootSource.type)}); wrap the value in an object property`,
    );
  }
  if (normalizer.issues.length > 0) throw new UnsupportedSchemaError(normalizer.issues);

  for (const [container, defs] of Object.entries(definitions)) rootSchema[container] = defs;
  const plan: DenormalizePlan = {
    root: rootNode,
    definitions: { ...normalizer.definitions },
    strictSchema: rootSchema,
  };
  return { schema: rootSchema, plan };
}
