/** The caller's schema checked and compiled with Ajv, which is loaded on first use. See docs/structured-output.md. */
import type { Options as AjvOptions, ValidateFunction } from "ajv";
import { requirePackage } from "../load-module.js";
import { RennetError } from "../errors.js";
import type { JsonSchemaObject } from "./json-schema.js";
import { formatSchemaIssues, schemaIssues, type MetaSchemaError, type SchemaIssue } from "./schema-errors.js";
import { errorMessage } from "../errors.js";

/**
 * The caller's schema is not a valid JSON Schema (or uses a dialect we do not validate). `.issues` names each
 * offending place (JSON pointer), the value there and what is wrong, when the meta-schema found them.
 */
export class InvalidSchemaError extends RennetError<"SCHEMA_INVALID"> {
  override readonly name = "InvalidSchemaError";
  constructor(
    detail: string,
    readonly issues: readonly SchemaIssue[] = [],
  ) {
    super("SCHEMA_INVALID", `Output schema is not a valid JSON Schema: ${detail}`);
  }
}

type Dialect = "draft-07" | "2019-09" | "2020-12";

/** `$schema` without scheme and trailing `#` → dialect. */
const DIALECTS: ReadonlyMap<string, Dialect> = new Map([
  ["json-schema.org/draft-07/schema", "draft-07"],
  ["json-schema.org/draft/2019-09/schema", "2019-09"],
  ["json-schema.org/draft/2020-12/schema", "2020-12"],
]);
const CANONICAL_URI: { readonly [dialect in Dialect]: string } = {
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

const AJV_OPTIONS: AjvOptions = {
  allErrors: true,
  // Callers' ordinary schemas may carry extension keywords; the meta-schema check still applies.
  strict: false,
  // `format` is an annotation by default in 2019-09/2020-12; strict mode constrains the formats it supports.
  validateFormats: false,
  logger: false,
};

const validators = new WeakMap<JsonSchemaObject, ValidateFunction>();

/** What the three Ajv builds share and Rennet uses. */
type AjvConstructor = new (options: AjvOptions) => {
  compile(schema: object): ValidateFunction;
  validateSchema(schema: object): boolean | Promise<unknown>;
  errors?: MetaSchemaError[] | null;
};

const AJV_MODULES: { readonly [dialect in Dialect]: string } = {
  "draft-07": "ajv",
  "2019-09": "ajv/dist/2019.js",
  "2020-12": "ajv/dist/2020.js",
};

/**
 * Ajv's build for a dialect, loaded on first use so that importing the package does not load Ajv. Ajv is
 * CommonJS, so `require` loads it synchronously: schema errors are still thrown before anything starts.
 */
function ajvFor(dialect: Dialect): AjvConstructor {
  return requirePackage<{ default: AjvConstructor }>(AJV_MODULES[dialect]).default;
}

/**
 * The compiled validator for a caller's schema, cached per schema object. Picks Ajv's 2020-12 or 2019-09
 * build from `$schema`, draft-07 otherwise. Throws `InvalidSchemaError` (`SCHEMA_INVALID`).
 */
export function compileSchemaValidator(schema: JsonSchemaObject): ValidateFunction {
  const cached = validators.get(schema);
  if (cached) return cached;
  let dialect: Dialect = "draft-07";
  if (schema.$schema !== undefined) {
    const uri =
      typeof schema.$schema === "string" ? schema.$schema.replace(/^https?:\/\//, "").replace(/#$/, "") : "";
    const known = DIALECTS.get(uri);
    if (known === undefined) {
      throw new InvalidSchemaError(
        `$schema ${JSON.stringify(schema.$schema)} is not supported; declare draft-07 ("http://json-schema.org/draft-07/schema#") or 2020-12 ("https://json-schema.org/draft/2020-12/schema"), or omit $schema`,
      );
    }
    dialect = known;
  }
  // One Ajv instance per schema: a caller's `$id` can then never clash with another schema's.
  const Ajv = ajvFor(dialect);
  const ajv = new Ajv(AJV_OPTIONS);
  const canonical = schema.$schema === undefined ? schema : { ...schema, $schema: CANONICAL_URI[dialect] };
  if (ajv.validateSchema(canonical) === false) {
    const issues = schemaIssues(ajv.errors ?? [], schema);
    throw new InvalidSchemaError(`${formatSchemaIssues(issues)}; fix the schema`, issues);
  }
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(canonical);
  } catch (error) {
    throw new InvalidSchemaError(`${errorMessage(error)}; fix the schema`);
  }
  validators.set(schema, validate);
  return validate;
}
