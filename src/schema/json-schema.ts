/** A JSON Schema object as written by a caller. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };
/** Any JSON Schema, including the boolean forms. */
export type JsonSchema = boolean | JsonSchemaObject;

/** `type` as a list of names (`"string"` → `["string"]`); null when absent or not a name or list of names. Pure. */
export function typeList(schema: JsonSchemaObject): string[] | null {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type) && type.every((entry) => typeof entry === "string")) return type as string[];
  return null;
}
