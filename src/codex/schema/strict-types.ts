import { typeList, type JsonSchemaObject } from "../../schema/json-schema.js";
import { JSON_TYPES } from "./strict-keywords.js";

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return "number";
  return typeof value;
}

/**
 * The deduplicated type names a schema gets in strict form: its `type`, or one inferred from `const`/`enum`
 * values, `properties` (object) or `items` (array); inference never widens what the schema allows. Null when
 * none can be given; a malformed or unknown `type` is also reported to `problem`. Pure apart from `problem`.
 */
export function strictTypes(schema: JsonSchemaObject, problem: (message: string) => void): string[] | null {
  if (schema.type !== undefined) {
    const types = typeList(schema);
    if (types === null || types.length === 0) {
      problem("type must be a type name or a non-empty array of type names");
      return null;
    }
    const unknown = types.filter((type) => !JSON_TYPES.has(type));
    if (unknown.length > 0) {
      problem(
        `unknown type ${unknown.map((type) => JSON.stringify(type)).join(", ")}; use one of ${[...JSON_TYPES].join(", ")}`,
      );
      return null;
    }
    return [...new Set(types)];
  }
  // Infer a type strict mode can accept; it never widens what the caller's schema allows.
  const values = Object.hasOwn(schema, "const")
    ? [schema.const]
    : Array.isArray(schema.enum)
      ? schema.enum
      : null;
  if (values !== null) {
    const inferred = [...new Set(values.map(jsonTypeOf))];
    return inferred.length > 0 ? inferred : null;
  }
  if (schema.properties !== undefined) return ["object"];
  if (schema.items !== undefined) return ["array"];
  return null;
}
