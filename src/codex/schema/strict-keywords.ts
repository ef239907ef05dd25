/** The keyword tables of the strict-mode normalization: what is kept, checked afterwards, rejected or dropped. */

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

export const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
export const SCALAR_TYPES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean"]);

/** Sent to the model as they are. */
export const KEPT_ANNOTATIONS = ["title", "description"] as const;
export const KEPT_CONSTRAINTS = [
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
export const CHECKED_AFTERWARDS: ReadonlySet<string> = new Set([
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
export const REJECTED: ReadonlyMap<string, string> = new Map(
  Object.entries({
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
  }),
);

/** Keywords allowed next to `$ref` (dropped from the strict schema: strict mode wants `$ref` alone). */
export const REF_SIBLINGS_DROPPED: ReadonlySet<string> = new Set([
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
export const ROOT_ONLY: ReadonlySet<string> = new Set(["$defs", "definitions", "$schema", "$id"]);

/** Where definitions live; only at the root. */
export const DEFINITION_KEYWORDS = ["$defs", "definitions"] as const;
