import { isRecord } from "../../json-record.js";
import { typeList, type JsonSchemaObject } from "../../schema/json-schema.js";
import { resolveLocalRef } from "../../schema/local-ref.js";
import { KEPT_ANNOTATIONS, SCALAR_TYPES } from "./strict-keywords.js";

/**
 * Does the caller's schema accept null? Structural and conservative: a schema with `not` is treated as
 * rejecting null, so the plan drops null answers for it when it is optional. `$ref`s resolve against `root`;
 * a ref cycle counts as rejecting null. Pure.
 */
export function admitsNull(
  schema: unknown,
  root: JsonSchemaObject,
  seen: ReadonlySet<string> = new Set(),
): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  if (typeof schema.$ref === "string") {
    if (seen.has(schema.$ref)) return false;
    const resolved = resolveLocalRef(root, schema.$ref);
    return resolved.ok && admitsNull(resolved.target, root, new Set([...seen, schema.$ref]));
  }
  if (schema.not !== undefined) return false;
  const types = typeList(schema);
  if (types !== null && !types.includes("null")) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if (Object.hasOwn(schema, "const") && schema.const !== null) return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((branch) => admitsNull(branch, root, seen)))
    return false;
  return (
    types !== null ||
    Array.isArray(schema.enum) ||
    Object.hasOwn(schema, "const") ||
    Array.isArray(schema.anyOf)
  );
}

/** Makes a normalized schema accept null as well, without adding a second null where one already is. Pure. */
export function makeNullable(schema: JsonSchemaObject): JsonSchemaObject {
  const annotations: { [keyword: string]: unknown } = {};
  const rest: { [keyword: string]: unknown } = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if ((KEPT_ANNOTATIONS as readonly string[]).includes(keyword)) annotations[keyword] = value;
    else rest[keyword] = value;
  }
  const types = typeList(schema);
  const restKeys = Object.keys(rest);
  if (Array.isArray(rest.anyOf) && restKeys.length === 1) {
    const branches = rest.anyOf as JsonSchemaObject[];
    const hasNull = branches.some(
      (branch) =>
        typeList(branch)?.length === 1 && branch.type === "null" && Object.keys(branch).length === 1,
    );
    return { ...annotations, anyOf: hasNull ? branches : [...branches, { type: "null" }] };
  }
  const simple =
    types !== null &&
    types.every((type) => SCALAR_TYPES.has(type) || type === "null") &&
    rest.enum === undefined &&
    !Object.hasOwn(rest, "const") &&
    rest.anyOf === undefined;
  if (simple) {
    return { ...schema, type: types.includes("null") ? schema.type : [...types, "null"] };
  }
  return { ...annotations, anyOf: [rest, { type: "null" }] };
}
