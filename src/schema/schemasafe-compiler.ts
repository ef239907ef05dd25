/**
 * Schemas compiled with `@exodus/schemasafe` (loaded on first use) into validators whose `errors` say what is
 * wrong in words ({@link SchemaViolation}), and each dialect's meta-schema validator, compiled once.
 */
import { requirePackage } from "../load-module.js";
import type { Dialect } from "./dialect.js";
import { META_SCHEMA_TEXTS } from "./meta-schemas.js";
import { preparedSchema } from "./schema-preparation.js";
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
  // contentEncoding / contentMediaType / contentSchema are annotations, as `format` is (see preparedSchema()).
  contentValidation: false,
};

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
