/**
 * A caller's JSON Schema (an output schema, an app tool's input schema) checked against its dialect's meta-schema
 * and compiled with @exodus/schemasafe, which is loaded on first use. See docs/structured-output.md.
 */
import { RennetError, errorMessage } from "../errors.js";
import { CANONICAL_URI, type Dialect } from "./meta-schemas.js";
import type { JsonSchemaObject } from "./json-schema.js";
import { exceedsSchemaDepth, MAX_SCHEMA_DEPTH } from "./schema-depth.js";
import { formatSchemaIssues, schemaIssues, type SchemaIssue } from "./schema-errors.js";
import {
  compileWithSchemasafe,
  metaSchemaValidator,
  type SchemaValidateFunction,
} from "./schemasafe-compiler.js";

/**
 * The caller's schema is not a valid JSON Schema (or uses a dialect we do not validate). `.issues` names each
 * offending place (JSON pointer), the value there and what is wrong, when the meta-schema found them.
 */
export class InvalidSchemaError extends RennetError<"SCHEMA_INVALID"> {
  override readonly name = "InvalidSchemaError";
  /** `subject` names the schema in the message (default `Output schema`). */
  constructor(
    detail: string,
    readonly issues: readonly SchemaIssue[] = [],
    subject = "Output schema",
  ) {
    super("SCHEMA_INVALID", `${subject} is not a valid JSON Schema: ${detail}`);
  }
}

/** `$schema` without scheme and trailing `#` → dialect. */
const DIALECTS: ReadonlyMap<string, Dialect> = new Map([
  ["json-schema.org/draft-07/schema", "draft-07"],
  ["json-schema.org/draft/2019-09/schema", "2019-09"],
  ["json-schema.org/draft/2020-12/schema", "2020-12"],
]);

/** The dialect a `$schema` value names (http or https, with or without the trailing `#`), or undefined. */
function dialectNamed($schema: unknown): Dialect | undefined {
  if (typeof $schema !== "string") return undefined;
  return DIALECTS.get($schema.replace(/^https?:\/\//, "").replace(/#$/, ""));
}

const validators = new WeakMap<JsonSchemaObject, SchemaValidateFunction>();

/**
 * The compiled validator for a caller's schema, cached per schema object: 2020-12 or 2019-09 when `$schema`
 * says so, draft-07 otherwise. Throws `InvalidSchemaError` (`SCHEMA_INVALID`) whose message names the schema as
 * `subject`. Each schema is compiled on its own, so a caller's `$id` never clashes with another schema's.
 */
export function compileSchemaValidator(schema: JsonSchemaObject, subject?: string): SchemaValidateFunction {
  // a caller without types may pass anything; only an object can be a key of the cache or have `$schema`
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    const got = schema === null ? "null" : Array.isArray(schema) ? "an array" : typeof schema;
    throw new InvalidSchemaError(
      `got ${got}; give a JSON Schema object such as {"type":"object","properties":{…}}`,
      [],
      subject,
    );
  }
  const cached = validators.get(schema);
  if (cached) return cached;
  if (exceedsSchemaDepth(schema)) {
    throw new InvalidSchemaError(
      `it nests deeper than ${MAX_SCHEMA_DEPTH} levels of objects and arrays (or contains itself); fix the schema`,
      [],
      subject,
    );
  }
  let dialect: Dialect = "draft-07";
  if (schema.$schema !== undefined) {
    const known = dialectNamed(schema.$schema);
    if (known === undefined) {
      throw new InvalidSchemaError(
        `$schema ${JSON.stringify(schema.$schema)} is not supported; declare draft-07 ("http://json-schema.org/draft-07/schema#") or 2020-12 ("https://json-schema.org/draft/2020-12/schema"), or omit $schema`,
        [],
        subject,
      );
    }
    dialect = known;
  }
  const canonical = schema.$schema === undefined ? schema : { ...schema, $schema: CANONICAL_URI[dialect] };
  const meta = metaSchemaValidator(dialect);
  if (!meta(canonical)) {
    const issues = schemaIssues(meta.errors ?? [], schema);
    throw new InvalidSchemaError(`${formatSchemaIssues(issues)}; fix the schema`, issues, subject);
  }
  let validate: SchemaValidateFunction;
  try {
    validate = compileWithSchemasafe(canonical, dialect);
  } catch (error) {
    throw new InvalidSchemaError(`${errorMessage(error)}; fix the schema`, [], subject);
  }
  validators.set(schema, validate);
  return validate;
}
