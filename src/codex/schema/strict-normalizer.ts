import { isRecord } from "../../json-record.js";
import type { DenormalizeNode, DenormalizeProperty } from "./denormalize.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { childPointer, escapePointerToken, resolveLocalRef } from "../../schema/local-ref.js";
import { admitsNull, makeNullable } from "./nullability.js";
import { DEFINITION_KEYWORDS, REF_SIBLINGS_DROPPED, REJECTED, ROOT_ONLY } from "./strict-keywords.js";
import { addCheckedAfterwardsHint, strictScalars } from "./strict-scalars.js";
import type { UnsupportedSchemaIssue } from "../../schema/unsupported-schema-error.js";

type Mutable = { [keyword: string]: unknown };

/** Sets `name` as an own entry: a property or definition named `__proto__` stays one, not the prototype. */
function setOwn<T>(target: { [name: string]: T }, name: string, value: T): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}
type MutableNode = { -readonly [K in keyof DenormalizeNode]: DenormalizeNode[K] };

/**
 * One normalization of a caller's schema into strict form: collects every issue instead of stopping at the
 * first, and builds the denormalize plan's nodes alongside. Used by {@link normalizeSchemaForStrictMode}.
 */
export class StrictNormalizer {
  readonly issues: UnsupportedSchemaIssue[] = [];
  readonly definitions: { [ref: string]: DenormalizeNode } = {};
  /** Refs reached from each definition without passing a property or an array item (cycle detection). */
  private readonly directRefs = new Map<string, Set<string>>();
  private currentDefinition: string | null = null;

  constructor(private readonly root: JsonSchemaObject) {}

  issue(pointer: string, message: string): void {
    this.issues.push({ pointer, message });
  }

  /** Resolves a local ref against the caller's root, or null with an issue at `pointer` explaining why. */
  resolveRef(ref: string, pointer: string): JsonSchemaObject | null {
    const resolved = resolveLocalRef(this.root, ref);
    if (resolved.ok) return resolved.target;
    this.issue(pointer, resolved.problem);
    return null;
  }

  normalizeDefinitions(): { [container: string]: { [name: string]: unknown } } {
    const out: { [container: string]: { [name: string]: unknown } } = {};
    for (const container of DEFINITION_KEYWORDS) {
      const defs = this.root[container];
      if (defs === undefined) continue;
      if (!isRecord(defs)) {
        this.issue(`#/${container}`, `${container} must be an object of named schemas`);
        continue;
      }
      const normalized: { [name: string]: unknown } = {};
      for (const [name, definition] of Object.entries(defs)) {
        const ref = `#/${container}/${escapePointerToken(name)}`;
        this.currentDefinition = ref;
        this.directRefs.set(ref, new Set());
        const { schema, node } = this.normalize(definition, ref, true);
        this.currentDefinition = null;
        setOwn(normalized, name, schema);
        this.definitions[ref] = node;
      }
      out[container] = normalized;
    }
    this.checkRefCycles();
    return out;
  }

  /** A definition that reaches itself only through `$ref`/`anyOf` describes no finite value. */
  private checkRefCycles(): void {
    const state = new Map<string, "visiting" | "done">();
    const visit = (ref: string, path: readonly string[]): void => {
      if (state.get(ref) === "done") return;
      if (state.get(ref) === "visiting") {
        this.issue(
          ref,
          `$ref cycle ${[...path.slice(path.indexOf(ref)), ref].join(" -> ")} never passes through an object property or array item; such a schema describes no finite value`,
        );
        return;
      }
      state.set(ref, "visiting");
      for (const next of this.directRefs.get(ref) ?? []) visit(next, [...path, ref]);
      state.set(ref, "done");
    };
    for (const ref of this.directRefs.keys()) visit(ref, []);
  }

  /**
   * Normalizes one subschema. `direct` is true while no property/item boundary has been crossed since the
   * enclosing definition started (for cycle detection). Issues come in a fixed order: placement, scalar
   * keywords, composition, object, array, open-ended keywords.
   */
  normalize(
    schema: unknown,
    pointer: string,
    direct: boolean,
  ): { schema: JsonSchemaObject; node: DenormalizeNode } {
    if (schema === true || (isRecord(schema) && Object.keys(schema).length === 0)) {
      this.issue(
        pointer,
        "this schema accepts any value, but strict mode needs a type; give it a type (or anyOf of types)",
      );
      return { schema: {}, node: {} };
    }
    if (!isRecord(schema)) {
      this.issue(pointer, "this schema accepts nothing (or is not a schema); replace it with a typed schema");
      return { schema: {}, node: {} };
    }
    this.checkPlacement(schema, pointer);
    if (schema.$ref !== undefined) return this.normalizeRef(schema, pointer, direct);

    const { out, types, checkedAfterwards } = strictScalars(schema, (message) =>
      this.issue(pointer, message),
    );
    const node: MutableNode = {};
    const isObject = types?.includes("object") ?? false;
    this.normalizeComposition(schema, pointer, direct, { out, node, typed: types !== null });
    if (isObject) node.properties = this.normalizeObject(schema, pointer, out);
    else if (schema.properties !== undefined || schema.required !== undefined) {
      this.issue(
        pointer,
        'properties/required on a schema whose type excludes "object"; add "object" to type or remove them',
      );
    }
    this.normalizeArray(schema, pointer, types?.includes("array") ?? false, { out, node });
    this.checkOpenEnded(schema, pointer, isObject);
    addCheckedAfterwardsHint(out, checkedAfterwards);
    return { schema: out, node };
  }

  /** Keywords that are never supported, and those supported at the root only. */
  private checkPlacement(schema: JsonSchemaObject, pointer: string): void {
    for (const keyword of Object.keys(schema)) {
      const fix = REJECTED.get(keyword);
      if (fix !== undefined) this.issue(pointer, `"${keyword}" is not supported: ${fix}`);
    }
    if (pointer === "#") return;
    for (const container of DEFINITION_KEYWORDS) {
      if (schema[container] !== undefined) {
        this.issue(
          pointer,
          `${container} is only supported at the root; move these definitions to the root ${container}`,
        );
      }
    }
    if (schema.$id !== undefined) {
      this.issue(
        pointer,
        "$id is only supported at the root; remove it (references must be local to the root)",
      );
    }
  }

  /** `anyOf`: each branch normalized; a schema with neither a type, `enum`, `const` nor `anyOf` is an issue. */
  private normalizeComposition(
    schema: JsonSchemaObject,
    pointer: string,
    direct: boolean,
    into: { out: Mutable; node: MutableNode; typed: boolean },
  ): void {
    if (schema.anyOf === undefined) {
      if (!into.typed && !Object.hasOwn(schema, "enum") && !Object.hasOwn(schema, "const"))
        this.issue(
          pointer,
          "schema has no type; strict mode needs one: add type (or anyOf of typed schemas)",
        );
      return;
    }
    if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0) {
      this.issue(pointer, "anyOf must be a non-empty array of schemas");
      return;
    }
    if (schema.properties !== undefined || schema.items !== undefined) {
      this.issue(
        pointer,
        "anyOf next to properties/items is not supported; move the shared properties into each anyOf branch",
      );
    }
    const branches = schema.anyOf.map((branch, index) =>
      this.normalize(branch, childPointer(pointer, "anyOf", index), direct),
    );
    into.out.anyOf = branches.map((branch) => branch.schema);
    into.node.anyOf = branches.map((branch) => ({ schema: branch.schema, node: branch.node }));
  }

  /** An array's `items` (one schema; no tuples), or `items` on a schema that is not an array. */
  private normalizeArray(
    schema: JsonSchemaObject,
    pointer: string,
    isArray: boolean,
    into: { out: Mutable; node: MutableNode },
  ): void {
    const items = schema.items;
    if (!isArray) {
      if (items !== undefined)
        this.issue(
          pointer,
          'items on a schema whose type excludes "array"; add "array" to type or remove items',
        );
      return;
    }
    if (items === undefined) {
      this.issue(pointer, "array without items; declare the element schema in items");
    } else if (Array.isArray(items)) {
      this.issue(
        pointer,
        "items as an array (a tuple) is not supported: strict mode has no tuples; use an object with named properties",
      );
    } else {
      const child = this.normalize(items, childPointer(pointer, "items"), false);
      into.out.items = child.schema;
      into.node.items = child.node;
    }
  }

  /** Keywords that would let the model produce undeclared entries (an object's own are judged with it). */
  private checkOpenEnded(schema: JsonSchemaObject, pointer: string, isObject: boolean): void {
    for (const keyword of ["unevaluatedProperties", "unevaluatedItems", "additionalProperties"] as const) {
      const value = schema[keyword];
      if (value !== undefined && value !== false && !(keyword === "additionalProperties" && isObject)) {
        this.issue(
          pointer,
          `${keyword} other than false is not supported: strict mode never produces undeclared entries; remove it`,
        );
      }
    }
  }

  private normalizeRef(
    schema: JsonSchemaObject,
    pointer: string,
    direct: boolean,
  ): { schema: JsonSchemaObject; node: DenormalizeNode } {
    const ref = schema.$ref;
    const extra = Object.keys(schema).filter(
      (keyword) =>
        keyword !== "$ref" &&
        !REF_SIBLINGS_DROPPED.has(keyword) &&
        !REJECTED.has(keyword) &&
        !(pointer === "#" && ROOT_ONLY.has(keyword)),
    );
    if (extra.length > 0) {
      this.issue(
        pointer,
        `$ref next to ${extra.map((keyword) => `"${keyword}"`).join(", ")} is not supported; move those keywords into the referenced definition`,
      );
    }
    if (typeof ref !== "string") {
      this.issue(pointer, "$ref must be a string");
      return { schema: {}, node: {} };
    }
    this.resolveRef(ref, pointer);
    if (direct && this.currentDefinition !== null) this.directRefs.get(this.currentDefinition)?.add(ref);
    return { schema: { $ref: ref }, node: { ref } };
  }

  private normalizeObject(
    schema: JsonSchemaObject,
    pointer: string,
    out: Mutable,
  ): { [name: string]: DenormalizeProperty } {
    const properties = schema.properties;
    const additional = schema.additionalProperties;
    if (additional !== undefined && additional !== false) {
      this.issue(
        pointer,
        `additionalProperties ${additional === true ? "true" : "with a schema"} is not supported: strict mode only produces declared properties; remove it (extra keys will then never be produced) or model the map as an array of {key, value} objects`,
      );
    }
    if (properties === undefined && additional !== false) {
      this.issue(
        pointer,
        "object without properties (a free-form map) is not supported; declare its properties, or set additionalProperties: false for an always-empty object",
      );
    }
    if (properties !== undefined && !isRecord(properties)) {
      this.issue(pointer, "properties must be an object of named schemas");
    }
    const declared = isRecord(properties) ? properties : {};
    const required = new Set<string>();
    if (schema.required !== undefined) {
      if (!Array.isArray(schema.required) || !schema.required.every((name) => typeof name === "string")) {
        this.issue(pointer, "required must be an array of property names");
      } else {
        for (const name of schema.required as string[]) {
          if (!Object.hasOwn(declared, name)) {
            this.issue(
              pointer,
              `required lists "${name}", which is not declared in properties; declare it there (strict mode only produces declared properties)`,
            );
          }
          required.add(name);
        }
      }
    }

    const outProperties: Mutable = {};
    const plan: { [name: string]: DenormalizeProperty } = {};
    for (const [name, propertySchema] of Object.entries(declared)) {
      const child = this.normalize(propertySchema, childPointer(pointer, "properties", name), false);
      const optional = !required.has(name);
      const dropNull = optional && !admitsNull(propertySchema, this.root);
      setOwn(outProperties, name, dropNull ? makeNullable(child.schema) : child.schema);
      setOwn(plan, name, { dropNull, node: child.node });
    }
    out.properties = outProperties;
    out.required = Object.keys(outProperties);
    out.additionalProperties = false;
    return plan;
  }
}
