/**
 * Schemas compiled with `@exodus/schemasafe` (loaded on first use) into validators whose `errors` say what is
 * wrong in words ({@link SchemaViolation}), and each dialect's meta-schema validator, compiled once. A schema
 * is rewritten first so that schemasafe accepts and validates what a lenient validator does (Ajv with
 * `strict: false`, which Rennet used before), without changing which values are valid.
 */
import { requirePackage } from "../load-module.js";
import { META_SCHEMA_TEXTS, type Dialect } from "./meta-schemas.js";
import { SchemaLocations } from "./schema-locations.js";
import { violationOf, type RawSchemaError, type SchemaViolation } from "./violation-messages.js";

/** A compiled schema: true when the value is valid; otherwise `errors` lists why (all of them). */
export interface SchemaValidateFunction {
  (value: unknown): boolean;
  errors: SchemaViolation[] | null;
}

interface RawValidate {
  (value: unknown): boolean;
  errors?: RawSchemaError[] | null;
}

interface Schemasafe {
  validator(schema: unknown, options: Record<string, unknown>): RawValidate;
}

const OPTIONS = {
  // `spec`: no lint of the schema beyond what the specification requires (min > max, a lone $recursiveRef…).
  mode: "spec",
  includeErrors: true,
  allErrors: true,
  // Callers' ordinary schemas may carry extension keywords; the meta-schema check still applies.
  allowUnusedKeywords: true,
  allowUnreachable: true,
  // contentEncoding / contentMediaType / contentSchema are annotations (and left out: see preparedSchema()).
  contentValidation: false,
};

type Json = Record<string, unknown>;

/**
 * Keywords left out before compiling. Annotations: `format` (not asserted; an unknown format name is no error)
 * and the `content*` keywords. Keywords of no supported dialect that schemasafe would act on: OpenAPI's
 * `discriminator`, draft-next's `propertyDependencies`, draft-03's `divisibleBy`, draft-04's `id`, its own
 * `removeAdditional`; and `$vocabulary`, which it refuses for a vocabulary it does not know.
 */
const IGNORED = new Set([
  "format",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "discriminator",
  "propertyDependencies",
  "divisibleBy",
  "id",
  "removeAdditional",
  "$vocabulary",
]);

/** Keywords that hold data, not schemas: nothing inside them is rewritten. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

/** Applicators whose subschemas apply to the same value, so the value's type constraint carries into them. */
const IN_PLACE = new Set(["allOf", "anyOf", "oneOf", "not", "if", "then", "else"]);
const IN_PLACE_MAPS = new Set(["dependentSchemas", "dependencies"]);
/** Keywords whose value maps names to subschemas of other values. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs"]);

const TYPES_OF_KEYWORD: ReadonlyMap<string, readonly string[]> = new Map(
  (
    [
      [
        ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
        ["number", "integer"],
      ],
      [
        ["minLength", "maxLength", "pattern", "contentEncoding", "contentMediaType", "contentSchema"],
        ["string"],
      ],
      [
        ["items", "prefixItems", "additionalItems", "contains", "minItems", "maxItems", "uniqueItems"],
        ["array"],
      ],
      [["minContains", "maxContains", "unevaluatedItems"], ["array"]],
      [["properties", "patternProperties", "additionalProperties", "required", "propertyNames"], ["object"]],
      [["minProperties", "maxProperties", "dependentRequired", "unevaluatedProperties"], ["object"]],
    ] as const
  ).flatMap(([keywords, types]) => keywords.map((keyword): [string, readonly string[]] => [keyword, types])),
);

function isMap(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typesOf(node: Json): string[] | undefined {
  const type = node.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type) && type.every((t) => typeof t === "string")) return type as string[];
  return undefined;
}

function narrowed(own: string[] | undefined, inherited: readonly string[] | undefined): string[] | undefined {
  if (own === undefined) return inherited === undefined ? undefined : [...inherited];
  if (inherited === undefined) return own;
  return own.filter((t) => inherited.includes(t) || (t === "integer" && inherited.includes("number")));
}

/** Whether a keyword can constrain a value whose type is one of `types`. */
function applies(keyword: string, types: readonly string[] | undefined): boolean {
  const wants = TYPES_OF_KEYWORD.get(keyword);
  if (wants === undefined || types === undefined) return true;
  return types.some((t) => wants.includes(t));
}

/** Whether `required` names a property that neither `properties` nor `patternProperties` admits. */
function forbidsRequired(node: Json): boolean {
  if (!Array.isArray(node.required)) return false;
  const named = isMap(node.properties) ? Object.keys(node.properties) : [];
  const patterns = isMap(node.patternProperties) ? Object.keys(node.patternProperties) : [];
  return node.required.some((name) => {
    if (typeof name !== "string" || named.includes(name)) return false;
    return !patterns.some((pattern) => {
      try {
        return new RegExp(pattern, "u").test(name);
      } catch {
        return false;
      }
    });
  });
}

function preparedNode(node: Json, dialect: Dialect, inherited: readonly string[] | undefined): Json {
  const types = narrowed(typesOf(node), inherited);
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (IGNORED.has(key)) continue;
    // A keyword for a type `type` excludes can never fail; schemasafe would refuse the schema for it.
    if (!applies(key, types)) continue;
    if (DATA_KEYWORDS.has(key)) copy[key] = value;
    else if (IN_PLACE.has(key)) copy[key] = preparedSchemas(value, dialect, types);
    else if ((IN_PLACE_MAPS.has(key) || SCHEMA_MAPS.has(key)) && isMap(value)) {
      const carried = IN_PLACE_MAPS.has(key) ? types : undefined;
      copy[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, preparedSchemas(sub, dialect, carried)]),
      );
    } else copy[key] = preparedSchemas(value, dialect, undefined);
  }
  // OpenAPI's `nullable: true` beside `type` admits null (as Ajv does).
  const type = typesOf(copy);
  if (copy.nullable === true && type !== undefined && !type.includes("null")) copy.type = [...type, "null"];
  // `additionalProperties: false` beside a `required` name it forbids: schemasafe refuses the contradiction.
  if (copy.additionalProperties === false && forbidsRequired(copy)) copy.additionalProperties = { not: {} };
  // draft-07 ignores a `$ref`'s siblings; they apply here, as in 2019-09 and later.
  const siblings = Object.keys(copy).filter((key) => key !== "$ref");
  if (dialect === "draft-07" && typeof copy.$ref === "string" && siblings.length > 0 && !("$id" in copy)) {
    const { $ref, ...rest } = copy;
    return { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), { $ref }] };
  }
  return copy;
}

function preparedSchemas(
  value: unknown,
  dialect: Dialect,
  inherited: readonly string[] | undefined,
): unknown {
  if (Array.isArray(value)) return value.map((item) => preparedSchemas(item, dialect, inherited));
  if (typeof value !== "object" || value === null) return value;
  return preparedNode(value as Json, dialect, inherited);
}

/**
 * A copy of a schema as schemasafe compiles it: without the keywords in {@link IGNORED}, without keywords for types its `type`
 * excludes, with `nullable: true` as a null type, and in draft-07 with a `$ref` that has siblings moved into
 * `allOf`. Everything that is not a schema keyword is copied as it is.
 */
function preparedSchema(schema: unknown, dialect: Dialect): unknown {
  return preparedSchemas(schema, dialect, undefined);
}

/**
 * Errors with an applicator's own error (`anyOf`, `contains`) after the errors of its subschemas, which say
 * more (`/a must be string` before `/a must match a schema in anyOf`).
 */
function childrenFirst(errors: readonly RawSchemaError[]): RawSchemaError[] {
  const ordered: RawSchemaError[] = [];
  const deferred = new Map<number, RawSchemaError[]>();
  errors.forEach((error, index) => {
    let lastChild = -1;
    for (let later = index + 1; later < errors.length; later++) {
      if (errors[later]!.keywordLocation.startsWith(`${error.keywordLocation}/`)) lastChild = later;
    }
    if (lastChild > index) deferred.set(lastChild, [error, ...(deferred.get(lastChild) ?? [])]);
    else ordered.push(error);
    ordered.push(...(deferred.get(index) ?? []));
  });
  return ordered;
}

function schemasafe(): Schemasafe {
  return requirePackage<Schemasafe>("@exodus/schemasafe");
}

function validatorOf(
  schema: unknown,
  dialect: Dialect,
  documents: readonly unknown[],
): SchemaValidateFunction {
  const $schemaDefault = dialect === "draft-07" ? "http://json-schema.org/draft-07/schema#" : undefined;
  const raw = schemasafe().validator(schema, {
    ...OPTIONS,
    ...($schemaDefault === undefined ? {} : { $schemaDefault }),
    schemas: documents,
  });
  let locations: SchemaLocations | undefined;
  const validate = ((value: unknown): boolean => {
    if (raw(value)) {
      validate.errors = null;
      return true;
    }
    locations ??= new SchemaLocations(schema, documents);
    const where = locations;
    validate.errors = childrenFirst(raw.errors ?? []).map((error) => violationOf(error, where, value));
    return false;
  }) as SchemaValidateFunction;
  validate.errors = null;
  return validate;
}

/**
 * A caller's schema compiled for its dialect. Throws (schemasafe's `Error`) for a schema it cannot compile: a
 * `$ref` it cannot resolve, a keyword for a type the schema excludes, a required property
 * `additionalProperties: false` forbids.
 */
export function compileWithSchemasafe(schema: object, dialect: Dialect): SchemaValidateFunction {
  return validatorOf(preparedSchema(schema, dialect), dialect, []);
}

const metaValidators = new Map<Dialect, SchemaValidateFunction>();

/** The validator of a dialect's meta-schema, compiled on first use. */
export function metaSchemaValidator(dialect: Dialect): SchemaValidateFunction {
  let validate = metaValidators.get(dialect);
  if (validate === undefined) {
    const documents = META_SCHEMA_TEXTS[dialect].map((text) => preparedSchema(JSON.parse(text), dialect));
    validate = validatorOf(documents[0], dialect, documents);
    metaValidators.set(dialect, validate);
  }
  return validate;
}
