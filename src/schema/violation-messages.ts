/**
 * A validator's raw error (`keywordLocation` + `instanceLocation`) as a violation that says what is wrong in
 * words: `instancePath` (a JSON pointer into the value, `""` for its root), the keyword, a message such as
 * `must be string` and the parameters that name the offending property or the allowed values. Pure.
 */
import { instanceKeys, valueAtKeys, type KeywordAt, type SchemaLocations } from "./schema-locations.js";

/** What a validator reports for one failed keyword. */
export interface RawSchemaError {
  keywordLocation: string;
  instanceLocation: string;
}

/** One violation of a schema by a value. */
export interface SchemaViolation {
  /** JSON pointer into the value (`/tasks/0/text`), `""` for its root. */
  instancePath: string;
  keyword: string;
  message: string;
  /** `missingProperty`, `additionalProperty`, `unevaluatedProperty`, `propertyName`, `allowedValues`, `allowedValue`. */
  params: Record<string, unknown>;
}

function pointer(keys: readonly string[]): string {
  return keys.map((key) => `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** `must NOT have more than 3 characters` and the like, for keywords whose message needs only their value. */
const BOUND_MESSAGES: { readonly [keyword: string]: (limit: unknown) => string } = {
  maxLength: (n) => `must NOT have more than ${String(n)} characters`,
  minLength: (n) => `must NOT have fewer than ${String(n)} characters`,
  maxItems: (n) => `must NOT have more than ${String(n)} items`,
  minItems: (n) => `must NOT have fewer than ${String(n)} items`,
  maxProperties: (n) => `must NOT have more than ${String(n)} properties`,
  minProperties: (n) => `must NOT have fewer than ${String(n)} properties`,
  maximum: (n) => `must be <= ${String(n)}`,
  minimum: (n) => `must be >= ${String(n)}`,
  exclusiveMaximum: (n) => `must be < ${String(n)}`,
  exclusiveMinimum: (n) => `must be > ${String(n)}`,
  multipleOf: (n) => `must be multiple of ${String(n)}`,
  pattern: (p) => `must match pattern ${JSON.stringify(p)}`,
  type: (t) => `must be ${Array.isArray(t) ? t.join(",") : String(t)}`,
  minContains: (n) => `must contain at least ${String(n)} valid item(s)`,
  maxContains: (n) => `must contain at most ${String(n)} valid item(s)`,
};

const FIXED_MESSAGES: { readonly [keyword: string]: string } = {
  anyOf: "must match a schema in anyOf",
  oneOf: "must match exactly one schema in oneOf",
  not: "must NOT be valid",
  unevaluatedItems: "must NOT have unevaluated items",
  propertyNames: "property name must be valid",
};

/** `items ## 1 and 0 are identical`: the first pair of equal items, scanning from the end as Ajv does. */
function duplicatePair(items: unknown): string {
  if (!Array.isArray(items)) return "";
  const seen = new Map<string, number>();
  for (let i = items.length - 1; i >= 0; i--) {
    const key = canonical(items[i]);
    const later = seen.get(key);
    if (later !== undefined) return ` (items ## ${later} and ${i} are identical)`;
    seen.set(key, i);
  }
  return "";
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

/** How many items a tuple allows before `items: false` / `additionalItems: false` refuses the rest. */
function tupleLength(at: KeywordAt): number {
  const tuple = at.keyword === "items" ? at.parent?.prefixItems : at.parent?.items;
  return Array.isArray(tuple) ? tuple.length : 0;
}

/** A violation before its path is written: `keys` of the value it is about. */
type Described = Omit<SchemaViolation, "instancePath"> & { keys: string[] };

/** The message and parameters of a violation of the keyword `at` by the value at `keys` in `data`. */
function described(at: KeywordAt, keys: string[], data: unknown): Described {
  const { keyword, value: rule } = at;
  const parentKeys = keys.slice(0, -1);
  const last = keys.at(-1) ?? "";
  if (at.member !== undefined && Array.isArray(rule)) {
    // dependentRequired / dependencies: `member` present requires every property in `rule`.
    const deps = rule.map(String);
    const noun = deps.length === 1 ? "property" : "properties";
    const message = `must have ${noun} ${deps.join(", ")} when property ${at.member} is present`;
    return { keyword, message, params: { property: at.member, deps: deps.join(", ") }, keys };
  }
  if (rule === false && (at.member !== undefined || keyword === "")) {
    return { keyword: "false schema", message: "boolean schema is false", params: {}, keys };
  }
  if (at.keywords.includes("propertyNames")) {
    const inner = described({ ...at, keywords: [] }, parentKeys, data);
    const message = `property name ${JSON.stringify(last)} ${inner.message}`;
    return { keyword, message, params: { propertyName: last }, keys: parentKeys };
  }
  return byKeyword(at, keys, data);
}

/** {@link described} for a violation of an ordinary keyword. */
function byKeyword(at: KeywordAt, keys: string[], data: unknown): Described {
  const { keyword, value: rule } = at;
  const parentKeys = keys.slice(0, -1);
  const last = keys.at(-1) ?? "";
  switch (keyword) {
    case "required":
      return {
        keyword,
        message: `must have required property '${last}'`,
        params: { missingProperty: last },
        keys: parentKeys,
      };
    case "additionalProperties":
      if (rule !== false) break;
      return {
        keyword,
        message: "must NOT have additional properties",
        params: { additionalProperty: last },
        keys: parentKeys,
      };
    case "unevaluatedProperties":
      if (rule !== false) break;
      return {
        keyword,
        message: "must NOT have unevaluated properties",
        params: { unevaluatedProperty: last },
        keys: parentKeys,
      };
    case "enum":
      return {
        keyword,
        message: "must be equal to one of the allowed values",
        params: { allowedValues: rule },
        keys,
      };
    case "const":
      return { keyword, message: "must be equal to constant", params: { allowedValue: rule }, keys };
    case "uniqueItems":
      return {
        keyword,
        message: `must NOT have duplicate items${duplicatePair(valueAtKeys(data, keys))}`,
        params: {},
        keys,
      };
    case "items":
    case "additionalItems":
      if (rule !== false) break;
      return { keyword, message: `must NOT have more than ${tupleLength(at)} items`, params: {}, keys };
    case "contains": {
      const least = typeof at.parent?.minContains === "number" ? at.parent.minContains : 1;
      return { keyword, message: `must contain at least ${least} valid item(s)`, params: {}, keys };
    }
  }
  const bound = BOUND_MESSAGES[keyword];
  if (bound !== undefined && rule !== undefined) return { keyword, message: bound(rule), params: {}, keys };
  const message = FIXED_MESSAGES[keyword] ?? `must pass "${keyword}" keyword validation`;
  return { keyword, message, params: {}, keys };
}

/** The violation a raw error stands for; `data` is the value that was validated. */
export function violationOf(
  error: RawSchemaError,
  locations: SchemaLocations,
  data: unknown,
): SchemaViolation {
  const at = locations.locate(error.keywordLocation);
  const { keys, ...rest } = described(at, instanceKeys(data, error.instanceLocation), data);
  return { instancePath: pointer(keys), ...rest };
}
