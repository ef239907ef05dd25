/**
 * Structured output of a utility call: prepare the strict schema for `turn/start.outputSchema`, then turn the
 * final agent message back into a value of the caller's schema (parse, denormalize, validate with Ajv).
 * See docs/structured-output.md.
 */
import { createRequire } from "node:module";
import { RennetError } from "../errors.js";
import type { ErrorObject, Options as AjvOptions, ValidateFunction } from "ajv";
import {
  normalizeSchemaForStrictMode,
  type DenormalizeNode,
  type DenormalizePlan,
  type JsonSchemaObject,
} from "./strict-schema.js";

/** The caller's schema is not a valid JSON Schema (or uses a dialect we do not validate). */
export class InvalidSchemaError extends RennetError<"SCHEMA_INVALID"> {
  override readonly name = "InvalidSchemaError";
  constructor(detail: string) {
    super("SCHEMA_INVALID", `Output schema is not a valid JSON Schema: ${detail}`);
  }
}

/** Everything a utility call needs before its turn starts. */
export interface PreparedStructuredOutput {
  /** The caller's schema, as given (never mutated). Validation runs against this. */
  readonly originalSchema: JsonSchemaObject;
  /** Strict-mode schema for `turn/start.outputSchema`. */
  readonly outputSchema: JsonSchemaObject;
  readonly plan: DenormalizePlan;
}

export type StructuredOutputParseResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      /** `no-message`: the turn produced no final message; `not-json`; `schema-violation`. */
      readonly reason: "no-message" | "not-json" | "schema-violation";
      /** Names the cause: the JSON error or the first violations, and quotes the start of the text. */
      readonly message: string;
      /** Every violation as `"<instancePath> <message>"` (`(root)` for the top level), or the JSON error. */
      readonly errors: string[];
      /** The start of the text (at most 200 characters, `…` appended when cut). */
      readonly excerpt: string;
    };

const EXCERPT_CHARS = 200;
const ERRORS_IN_MESSAGE = 5;
const MAX_ERRORS = 50;

type Dialect = "draft-07" | "2019-09" | "2020-12";

const DIALECTS: { readonly [uri: string]: Dialect } = {
  "json-schema.org/draft-07/schema": "draft-07",
  "json-schema.org/draft/2019-09/schema": "2019-09",
  "json-schema.org/draft/2020-12/schema": "2020-12",
};
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
type AjvConstructor = new (options: AjvOptions) => { compile(schema: object): ValidateFunction };

const AJV_MODULES: { readonly [dialect in Dialect]: string } = {
  "draft-07": "ajv",
  "2019-09": "ajv/dist/2019.js",
  "2020-12": "ajv/dist/2020.js",
};

const requireModule = createRequire(import.meta.url);

/**
 * Ajv's build for a dialect, loaded on first use so that importing the package does not load Ajv. Ajv is
 * CommonJS, so `require` loads it synchronously: schema errors are still thrown before anything starts.
 */
function ajvFor(dialect: Dialect): AjvConstructor {
  return (requireModule(AJV_MODULES[dialect]) as { default: AjvConstructor }).default;
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
    const known = DIALECTS[uri];
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
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(
      schema.$schema === undefined ? schema : { ...schema, $schema: CANONICAL_URI[dialect] },
    );
  } catch (error) {
    throw new InvalidSchemaError(`${error instanceof Error ? error.message : String(error)}; fix the schema`);
  }
  validators.set(schema, validate);
  return validate;
}

/**
 * Checks the caller's schema with Ajv, then normalizes it for strict mode. Throws `InvalidSchemaError`
 * (`SCHEMA_INVALID`) or `UnsupportedSchemaError` (`SCHEMA_UNSUPPORTED`) before any turn is started.
 */
export function prepareStructuredOutput(schema: JsonSchemaObject): PreparedStructuredOutput {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new InvalidSchemaError('the output schema must be a JSON Schema object with type "object"');
  }
  compileSchemaValidator(schema);
  const { schema: outputSchema, plan } = normalizeSchemaForStrictMode(schema);
  return { originalSchema: schema, outputSchema, plan };
}

function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolveStrictRef(root: JsonSchemaObject, ref: string): JsonSchemaObject | null {
  if (ref === "#") return root;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!match) return null;
  const container = root[match[1] as string];
  const name = (match[2] as string).replace(/~1/g, "/").replace(/~0/g, "~");
  const target = isPlainObject(container) && Object.hasOwn(container, name) ? container[name] : undefined;
  return isPlainObject(target) ? target : null;
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
      return isPlainObject(value);
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
    const target = resolveStrictRef(root, schema.$ref);
    return target !== null && matchesStrictShape(value, target, root, hops + 1);
  }
  if (
    Array.isArray(schema.anyOf) &&
    !schema.anyOf.some((branch) => isPlainObject(branch) && matchesStrictShape(value, branch, root, hops + 1))
  ) {
    return false;
  }
  if (Object.hasOwn(schema, "const") && schema.const !== value) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  if (schema.type !== undefined) {
    const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => hasJsonType(value, type))) return false;
  }
  if (isPlainObject(value) && isPlainObject(schema.properties)) {
    const properties = schema.properties;
    for (const key of Object.keys(value)) if (!Object.hasOwn(properties, key)) return false;
    for (const [key, propertySchema] of Object.entries(properties)) {
      if (!Object.hasOwn(value, key)) return false;
      if (isPlainObject(propertySchema) && !matchesStrictShape(value[key], propertySchema, root))
        return false;
    }
  }
  if (Array.isArray(value) && isPlainObject(schema.items)) {
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
  if (node.properties !== undefined && isPlainObject(value)) {
    const out: { [key: string]: unknown } = {};
    for (const [key, entry] of Object.entries(value)) {
      const property = Object.hasOwn(node.properties, key) ? node.properties[key] : undefined;
      if (property === undefined) out[key] = entry;
      else if (entry === null && property.dropNull) continue;
      else out[key] = denormalizeNode(entry, property.node, plan, 0);
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

function excerptOf(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function describeViolation(error: ErrorObject): string {
  const where = error.instancePath === "" ? "(root)" : error.instancePath;
  let detail = error.message ?? `fails ${error.keyword}`;
  const params = error.params as { [key: string]: unknown };
  if (error.keyword === "additionalProperties") detail += ` (${JSON.stringify(params.additionalProperty)})`;
  else if (error.keyword === "enum") detail += ` ${JSON.stringify(params.allowedValues)}`;
  else if (error.keyword === "const") detail += ` ${JSON.stringify(params.allowedValue)}`;
  return `${where} ${detail}`;
}

/**
 * Parses the final agent message of a structured-output turn: `JSON.parse`, `denormalizeValue`, then validation
 * against the caller's original schema (compiled once per schema object). Never throws for bad model output;
 * throws `InvalidSchemaError` only if `originalSchema` itself cannot be compiled.
 */
export function parseStructuredOutput(
  text: string | null,
  originalSchema: JsonSchemaObject,
  plan: DenormalizePlan,
): StructuredOutputParseResult {
  const validate = compileSchemaValidator(originalSchema);
  if (text === null) {
    const message = "The turn ended without a final message, so there is no JSON to parse";
    return { ok: false, reason: "no-message", message, errors: [message], excerpt: "" };
  }
  const excerpt = excerptOf(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: "not-json",
      message: `The final message is not valid JSON (${cause}); it starts with: ${JSON.stringify(excerpt)}`,
      errors: [cause],
      excerpt,
    };
  }
  const value = denormalizeValue(parsed, plan);
  let valid: boolean;
  try {
    valid = validate(value) === true;
  } catch (error) {
    // A pathological schema (e.g. deep recursion) can throw while validating; report it, never crash the caller.
    const cause = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: "schema-violation",
      message: `Validation failed: ${cause}`,
      errors: [cause],
      excerpt,
    };
  }
  if (valid) return { ok: true, value };
  const errors = [...new Set((validate.errors ?? []).map(describeViolation))].slice(0, MAX_ERRORS);
  if (errors.length === 0) errors.push("(root) does not match the schema");
  const shown = errors.slice(0, ERRORS_IN_MESSAGE);
  const more = errors.length > shown.length ? ` (+${errors.length - shown.length} more)` : "";
  return {
    ok: false,
    reason: "schema-violation",
    message: `The final message does not match the output schema: ${shown.join("; ")}${more}; it starts with: ${JSON.stringify(excerpt)}`,
    errors,
    excerpt,
  };
}
