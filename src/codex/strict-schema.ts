/**
 * Normalization of caller JSON Schemas into the strict form that Codex sends to the model as
 * `text.format = {type: "json_schema", strict: true, schema}`, plus the plan that maps the model's
 * answer back to the caller's shape (see `denormalizeValue` in structured-output.ts and
 * docs/structured-output.md).
 *
 * Pure: no I/O, no validator, never mutates its input.
 */

import { RennetError } from "../errors.js";

/** A JSON Schema object as written by a caller. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };
/** Any JSON Schema, including the boolean forms. */
export type JsonSchema = boolean | JsonSchemaObject;

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

export interface StrictSchemaResult {
  /** The strict-mode schema to send as `turn/start.outputSchema`. A fresh object; the input is untouched. */
  readonly schema: JsonSchemaObject;
  readonly plan: DenormalizePlan;
}

/** One reason a schema cannot be sent in strict mode. `pointer` is a JSON Pointer fragment, `#` is the root. */
export interface SchemaIssue {
  readonly pointer: string;
  readonly message: string;
}

/** The caller's schema uses something OpenAI strict mode cannot express. Lists every problem found. */
export class UnsupportedSchemaError extends RennetError<"SCHEMA_UNSUPPORTED"> {
  override readonly name = "UnsupportedSchemaError";
  constructor(readonly issues: readonly SchemaIssue[]) {
    const shown = issues.slice(0, 5).map((issue) => `at ${issue.pointer}: ${issue.message}`);
    const more = issues.length > shown.length ? ` (+${issues.length - shown.length} more)` : "";
    super(
      "SCHEMA_UNSUPPORTED",
      `Output schema cannot be used in strict structured-output mode: ${shown.join("; ")}${more}. ` +
        "See docs/structured-output.md for what strict mode supports.",
    );
  }
}

/** Formats OpenAI strict mode constrains generation with; other `format` values are checked after the answer. */
export const STRICT_MODE_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean"]);

/** Sent to the model as they are. */
const KEPT_ANNOTATIONS = ["title", "description"] as const;
const KEPT_CONSTRAINTS = [
  "pattern",
  "multipleOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
] as const;

/** Validation keywords strict mode cannot enforce: removed from the model's schema, checked after the answer. */
const CHECKED_AFTERWARDS = new Set([
  "minLength",
  "maxLength",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "contains",
  "minContains",
  "maxContains",
  "not",
  "dependentRequired",
  "propertyNames",
]);

/** Keywords with no strict-mode equivalent, and the fix to suggest. */
const REJECTED: { readonly [keyword: string]: string } = {
  oneOf: "strict mode has no oneOf; use anyOf",
  allOf: "strict mode has no allOf; merge the subschemas into one schema",
  if: "strict mode has no if/then/else; express the alternatives with anyOf",
  then: "strict mode has no if/then/else; express the alternatives with anyOf",
  else: "strict mode has no if/then/else; express the alternatives with anyOf",
  dependentSchemas: "strict mode has no dependentSchemas; express the alternatives with anyOf",
  dependencies: "strict mode has no dependencies; express the alternatives with anyOf",
  patternProperties:
    "strict mode cannot produce keys matching a pattern; declare the properties by name, or use an array of {key, value} objects",
  prefixItems: "strict mode has no tuples; use an object with named properties",
  additionalItems: "strict mode has no tuples; use an object with named properties",
  $dynamicRef: 'use a local $ref such as "#/$defs/Name"',
  $dynamicAnchor: 'use a local $ref such as "#/$defs/Name"',
  $recursiveRef: 'use a local $ref such as "#/$defs/Name"',
  $recursiveAnchor: 'use a local $ref such as "#/$defs/Name"',
  $anchor: 'refer to definitions by pointer ("#/$defs/Name") instead of anchors',
  nullable: 'the OpenAPI "nullable" keyword is not JSON Schema; use type: [T, "null"]',
};

/** Keywords allowed next to `$ref` (dropped from the strict schema: strict mode wants `$ref` alone). */
const REF_SIBLINGS_DROPPED = new Set([
  "title",
  "description",
  "$comment",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** Root keywords that may stand next to a root `$ref`. */
const ROOT_ONLY = new Set(["$defs", "definitions", "$schema", "$id"]);

type Mutable = { [keyword: string]: unknown };

function isSchemaObject(value: unknown): value is JsonSchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

function childPointer(pointer: string, ...tokens: readonly (string | number)[]): string {
  return tokens.reduce<string>((acc, token) => `${acc}/${escapePointerToken(String(token))}`, pointer);
}

function typeList(schema: JsonSchemaObject): string[] | null {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type) && type.every((entry) => typeof entry === "string")) return type as string[];
  return null;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return "number";
  return typeof value;
}

const DEFINITION_KEYWORDS = ["$defs", "definitions"] as const;

class Normalizer {
  readonly issues: SchemaIssue[] = [];
  readonly definitions: { [ref: string]: DenormalizeNode } = {};
  /** Refs reached from each definition without passing a property or an array item (cycle detection). */
  private readonly directRefs = new Map<string, Set<string>>();
  private currentDefinition: string | null = null;

  constructor(private readonly root: JsonSchemaObject) {}

  issue(pointer: string, message: string): void {
    this.issues.push({ pointer, message });
  }

  /** Resolves a local ref against the caller's root, or null with an issue explaining why. */
  resolveRef(ref: string, pointer: string | null): JsonSchemaObject | null {
    if (ref === "#") return this.root;
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    if (!match) {
      if (pointer !== null) {
        this.issue(
          pointer,
          `$ref "${ref}" is not supported; only "#" and local definitions ("#/$defs/Name" or "#/definitions/Name") can be referenced; move the target into $defs at the root`,
        );
      }
      return null;
    }
    const container = this.root[match[1] as string];
    const name = unescapePointerToken(match[2] as string);
    const target = isSchemaObject(container) && Object.hasOwn(container, name) ? container[name] : undefined;
    if (!isSchemaObject(target)) {
      if (pointer !== null) {
        this.issue(
          pointer,
          target === undefined
            ? `$ref "${ref}" does not resolve; define "${name}" under ${match[1]} at the root`
            : `$ref "${ref}" points at a boolean schema; strict mode needs a typed schema there`,
        );
      }
      return null;
    }
    return target;
  }

  /**
   * Does the caller's schema accept null? Structural and conservative: a schema with `not` is treated as
   * rejecting null, so the plan drops null answers for it when it is optional.
   */
  admitsNull(schema: unknown, seen: ReadonlySet<string> = new Set()): boolean {
    if (schema === true) return true;
    if (!isSchemaObject(schema)) return false;
    if (typeof schema.$ref === "string") {
      if (seen.has(schema.$ref)) return false;
      const target = this.resolveRef(schema.$ref, null);
      return target !== null && this.admitsNull(target, new Set([...seen, schema.$ref]));
    }
    if (schema.not !== undefined) return false;
    const types = typeList(schema);
    if (types !== null && !types.includes("null")) return false;
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
    if (Object.hasOwn(schema, "const") && schema.const !== null) return false;
    if (Array.isArray(schema.anyOf) && !schema.anyOf.some((branch) => this.admitsNull(branch, seen)))
      return false;
    return (
      types !== null ||
      Array.isArray(schema.enum) ||
      Object.hasOwn(schema, "const") ||
      Array.isArray(schema.anyOf)
    );
  }

  normalizeDefinitions(): { [container: string]: { [name: string]: unknown } } {
    const out: { [container: string]: { [name: string]: unknown } } = {};
    for (const container of DEFINITION_KEYWORDS) {
      const defs = this.root[container];
      if (defs === undefined) continue;
      if (!isSchemaObject(defs)) {
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
        normalized[name] = schema;
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
   * enclosing definition started (for cycle detection).
   */
  normalize(
    schema: unknown,
    pointer: string,
    direct: boolean,
  ): { schema: JsonSchemaObject; node: DenormalizeNode } {
    if (schema === true || (isSchemaObject(schema) && Object.keys(schema).length === 0)) {
      this.issue(
        pointer,
        "this schema accepts any value, but strict mode needs a type; give it a type (or anyOf of types)",
      );
      return { schema: {}, node: {} };
    }
    if (!isSchemaObject(schema)) {
      this.issue(pointer, "this schema accepts nothing (or is not a schema); replace it with a typed schema");
      return { schema: {}, node: {} };
    }

    for (const keyword of Object.keys(schema)) {
      const fix = REJECTED[keyword];
      if (fix !== undefined) this.issue(pointer, `"${keyword}" is not supported: ${fix}`);
    }
    if (pointer !== "#") {
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

    if (schema.$ref !== undefined) return this.normalizeRef(schema, pointer, direct);

    const out: Mutable = {};
    const node: { -readonly [K in keyof DenormalizeNode]: DenormalizeNode[K] } = {};
    for (const keyword of KEPT_ANNOTATIONS) {
      if (typeof schema[keyword] === "string") out[keyword] = schema[keyword];
    }

    const types = this.normalizeType(schema, pointer);
    if (types !== null) out.type = types.length === 1 ? types[0] : types;
    for (const keyword of ["enum", "const"] as const) {
      if (!Object.hasOwn(schema, keyword)) continue;
      const values = keyword === "enum" ? schema.enum : [schema.const];
      if (!Array.isArray(values) || (keyword === "enum" && values.length === 0)) {
        this.issue(pointer, "enum must be a non-empty array");
        continue;
      }
      if (values.some((value) => typeof value === "object" && value !== null)) {
        this.issue(
          pointer,
          `${keyword} values must be strings, numbers, booleans or null in strict mode; model objects with properties instead`,
        );
        continue;
      }
      out[keyword] = keyword === "enum" ? [...values] : schema.const;
    }

    for (const keyword of KEPT_CONSTRAINTS) {
      if (schema[keyword] !== undefined) out[keyword] = schema[keyword];
    }
    const checkedAfterwards: string[] = [];
    if (typeof schema.format === "string") {
      if (STRICT_MODE_FORMATS.has(schema.format)) out.format = schema.format;
      else checkedAfterwards.push(`format=${JSON.stringify(schema.format)}`);
    }
    for (const [keyword, value] of Object.entries(schema)) {
      if (CHECKED_AFTERWARDS.has(keyword)) checkedAfterwards.push(`${keyword}=${JSON.stringify(value)}`);
    }

    const isObject = types?.includes("object") ?? false;
    const isArray = types?.includes("array") ?? false;

    if (schema.anyOf !== undefined) {
      if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0) {
        this.issue(pointer, "anyOf must be a non-empty array of schemas");
      } else {
        if (schema.properties !== undefined || schema.items !== undefined) {
          this.issue(
            pointer,
            "anyOf next to properties/items is not supported; move the shared properties into each anyOf branch",
          );
        }
        const branches = schema.anyOf.map((branch, index) =>
          this.normalize(branch, childPointer(pointer, "anyOf", index), direct),
        );
        out.anyOf = branches.map((branch) => branch.schema);
        node.anyOf = branches.map((branch) => ({ schema: branch.schema, node: branch.node }));
      }
    } else if (types === null && !Object.hasOwn(schema, "enum") && !Object.hasOwn(schema, "const")) {
      this.issue(pointer, "schema has no type; strict mode needs one: add type (or anyOf of typed schemas)");
    }

    if (isObject) node.properties = this.normalizeObject(schema, pointer, out);
    else if (schema.properties !== undefined || schema.required !== undefined) {
      this.issue(
        pointer,
        'properties/required on a schema whose type excludes "object"; add "object" to type or remove them',
      );
    }
    if (isArray) {
      const items = schema.items;
      if (items === undefined) {
        this.issue(pointer, "array without items; declare the element schema in items");
      } else if (Array.isArray(items)) {
        this.issue(
          pointer,
          "items as an array (a tuple) is not supported: strict mode has no tuples; use an object with named properties",
        );
      } else {
        const child = this.normalize(items, childPointer(pointer, "items"), false);
        out.items = child.schema;
        node.items = child.node;
      }
    } else if (schema.items !== undefined) {
      this.issue(
        pointer,
        'items on a schema whose type excludes "array"; add "array" to type or remove items',
      );
    }
    for (const keyword of ["unevaluatedProperties", "unevaluatedItems", "additionalProperties"] as const) {
      const value = schema[keyword];
      if (value !== undefined && value !== false && !(keyword === "additionalProperties" && isObject)) {
        this.issue(
          pointer,
          `${keyword} other than false is not supported: strict mode never produces undeclared entries; remove it`,
        );
      }
    }

    if (checkedAfterwards.length > 0) {
      let hint = `Must satisfy: ${checkedAfterwards.join(", ")}.`;
      if (hint.length > 300) hint = `${hint.slice(0, 299)}…`;
      out.description = typeof out.description === "string" ? `${out.description} ${hint}` : hint;
    }
    return { schema: out, node };
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
        REJECTED[keyword] === undefined &&
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

  private normalizeType(schema: JsonSchemaObject, pointer: string): string[] | null {
    if (schema.type !== undefined) {
      const types = typeList(schema);
      if (types === null || types.length === 0) {
        this.issue(pointer, "type must be a type name or a non-empty array of type names");
        return null;
      }
      const unknown = types.filter((type) => !JSON_TYPES.has(type));
      if (unknown.length > 0) {
        this.issue(
          pointer,
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
    if (properties !== undefined && !isSchemaObject(properties)) {
      this.issue(pointer, "properties must be an object of named schemas");
    }
    const declared = isSchemaObject(properties) ? properties : {};
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
      const dropNull = optional && !this.admitsNull(propertySchema);
      outProperties[name] = dropNull ? makeNullable(child.schema) : child.schema;
      plan[name] = { dropNull, node: child.node };
    }
    out.properties = outProperties;
    out.required = Object.keys(outProperties);
    out.additionalProperties = false;
    return plan;
  }
}

/** Makes a normalized schema accept null as well, without adding a second null where one already is. */
function makeNullable(schema: JsonSchemaObject): JsonSchemaObject {
  const annotations: Mutable = {};
  const rest: Mutable = {};
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

/**
 * Converts an ordinary JSON Schema into OpenAI strict structured-output form and returns the plan that maps
 * answers back (see docs/structured-output.md). Throws `UnsupportedSchemaError` (`SCHEMA_UNSUPPORTED`) listing
 * every construct strict mode cannot express, each with its JSON pointer and the fix.
 */
export function normalizeSchemaForStrictMode(schema: JsonSchemaObject): StrictSchemaResult {
  if (!isSchemaObject(schema)) {
    throw new UnsupportedSchemaError([
      { pointer: "#", message: 'the output schema must be a JSON Schema object with type "object"' },
    ]);
  }
  const normalizer = new Normalizer(schema);
  const definitions = normalizer.normalizeDefinitions();

  let rootSource: JsonSchemaObject = schema;
  let rootPointer = "#";
  let rootNode: DenormalizeNode;
  let rootSchema: Mutable;
  if (typeof schema.$ref === "string") {
    // A root that only refers to a definition (as some generators emit) is inlined: strict mode wants an object root.
    const { node } = normalizer.normalize(schema, "#", false);
    const target = normalizer.resolveRef(schema.$ref, null);
    rootSource = target ?? {};
    rootPointer = schema.$ref;
    rootNode = node;
    const container = /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref);
    const inlined = container
      ? definitions[container[1] as string]?.[unescapePointerToken(container[2] as string)]
      : undefined;
    rootSchema = isSchemaObject(inlined) ? { ...inlined } : {};
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
