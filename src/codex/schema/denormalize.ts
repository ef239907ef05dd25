/**
 * The denormalize plan: how to map an answer given under the strict schema back to the caller's shape, and the
 * code that applies it. `normalizeSchemaForStrictMode` produces the plan; see docs/structured-output.md.
 */
import { isRecord } from "../../json-record.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { resolveLocalRef } from "../../schema/local-ref.js";

/**
 * How to map one schema position of a strict answer back to the caller's shape. JSON-serializable.
 * Treat as opaque: produced by `normalizeSchemaForStrictMode`, consumed by `denormalizeValue`.
 */
export interface DenormalizeNode {
  /** For object values: what to do with each declared property. */
  readonly properties?: { readonly [name: string]: DenormalizeProperty };
  /** For array values: the plan for every element. */
  readonly items?: DenormalizeNode;
  /** The first branch whose strict `schema` structurally matches the value decides. */
  readonly anyOf?: readonly DenormalizeBranch[];
  /** Continue with `DenormalizePlan.definitions[ref]` (`"#"` is the root). */
  readonly ref?: string;
}

export interface DenormalizeProperty {
  /** True when the caller's schema made the property optional and did not accept null: a null answer is removed. */
  readonly dropNull: boolean;
  readonly node: DenormalizeNode;
}

export interface DenormalizeBranch {
  /** The strict form of the branch, used to recognise which branch the answer took. */
  readonly schema: JsonSchemaObject;
  readonly node: DenormalizeNode;
}

export interface DenormalizePlan {
  readonly root: DenormalizeNode;
  /** Keyed by the local `$ref` string, e.g. `"#/$defs/Step"`. */
  readonly definitions: { readonly [ref: string]: DenormalizeNode };
  /** The strict schema the plan belongs to (resolves `$ref`s while matching `anyOf` branches). */
  readonly strictSchema: JsonSchemaObject;
}

function hasJsonType(value: unknown, type: unknown): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "object":
      return isRecord(value);
    case "array":
      return Array.isArray(value);
    default:
      return false;
  }
}

/**
 * Does `value` have the shape of a strict schema node (type, enum, const, declared keys, items, anyOf, $ref)?
 * Used only to tell `anyOf` branches apart; value constraints (pattern, minimum…) are left to the validator.
 */
function matchesStrictShape(
  value: unknown,
  schema: JsonSchemaObject,
  root: JsonSchemaObject,
  hops = 0,
): boolean {
  if (hops > 64) return false;
  if (typeof schema.$ref === "string") {
    const resolved = resolveLocalRef(root, schema.$ref);
    return resolved.ok && matchesStrictShape(value, resolved.target, root, hops + 1);
  }
  if (
    Array.isArray(schema.anyOf) &&
    !schema.anyOf.some((branch) => isRecord(branch) && matchesStrictShape(value, branch, root, hops + 1))
  ) {
    return false;
  }
  if (Object.hasOwn(schema, "const") && schema.const !== value) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  if (schema.type !== undefined) {
    const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => hasJsonType(value, type))) return false;
  }
  if (isRecord(value) && isRecord(schema.properties)) {
    const properties = schema.properties;
    for (const key of Object.keys(value)) if (!Object.hasOwn(properties, key)) return false;
    for (const [key, propertySchema] of Object.entries(properties)) {
      if (!Object.hasOwn(value, key)) return false;
      if (isRecord(propertySchema) && !matchesStrictShape(value[key], propertySchema, root)) return false;
    }
  }
  if (Array.isArray(value) && isRecord(schema.items)) {
    const items = schema.items;
    if (!value.every((item) => matchesStrictShape(item, items, root))) return false;
  }
  return true;
}

function denormalizeNode(
  value: unknown,
  node: DenormalizeNode | undefined,
  plan: DenormalizePlan,
  hops: number,
): unknown {
  if (node === undefined || hops > 64) return value;
  if (node.ref !== undefined) {
    return denormalizeNode(value, node.ref === "#" ? plan.root : plan.definitions[node.ref], plan, hops + 1);
  }
  if (node.anyOf !== undefined) {
    const branch = node.anyOf.find((candidate) =>
      matchesStrictShape(value, candidate.schema, plan.strictSchema),
    );
    return branch === undefined ? value : denormalizeNode(value, branch.node, plan, hops + 1);
  }
  if (node.properties !== undefined && isRecord(value)) {
    const out: { [key: string]: unknown } = {};
    // defineProperty: a `__proto__` key from the answer stays an own property
    const put = (key: string, entry: unknown): void => {
      Object.defineProperty(out, key, { value: entry, enumerable: true, writable: true, configurable: true });
    };
    for (const [key, entry] of Object.entries(value)) {
      const property = Object.hasOwn(node.properties, key) ? node.properties[key] : undefined;
      if (property === undefined) put(key, entry);
      else if (entry === null && property.dropNull) continue;
      else put(key, denormalizeNode(entry, property.node, plan, 0));
    }
    return out;
  }
  if (node.items !== undefined && Array.isArray(value)) {
    const items = node.items;
    return value.map((item) => denormalizeNode(item, items, plan, 0));
  }
  return value;
}

/**
 * Maps an answer given under the strict schema back to the caller's shape: removes properties that were
 * optional in the caller's schema, do not accept null there, and came back null — recursively, through
 * arrays, `anyOf` branches and `$ref`'d definitions. Nulls the caller's schema accepts are kept. Returns a new
 * value; the input is not modified.
 */
export function denormalizeValue(value: unknown, plan: DenormalizePlan): unknown {
  return denormalizeNode(value, plan.root, plan, 0);
}
