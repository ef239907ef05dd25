/** Meta-schema violations as messages that name the JSON path, the bad value and the fix. Pure. */
import { didYouMean } from "../did-you-mean.js";
import type { SchemaViolation } from "./violation-messages.js";

/** One problem of a schema: where, what is there, what is wrong. */
export interface SchemaIssue {
  /** JSON pointer into the schema, `""` for its root. */
  path: string;
  value: unknown;
  message: string;
}

/**
 * The issues behind a schema's meta-schema violations: one per offending place, the most telling error there (an `enum`
 * with its allowed values, not the `anyOf` alternatives around it), deepest places only (a bad keyword inside
 * `items`, not `items` itself).
 */
export function schemaIssues(errors: readonly SchemaViolation[], schema: unknown): SchemaIssue[] {
  const paths = [...new Set(errors.map((e) => e.instancePath))];
  const deepest = paths.filter((p) => !paths.some((other) => other !== p && other.startsWith(`${p}/`)));
  return deepest.map((path) => {
    const here = errors.filter((e) => e.instancePath === path && e.keyword !== "anyOf");
    const chosen = here.find((e) => e.keyword === "enum") ?? here[0];
    const value = valueAt(schema, path);
    return { path, value, message: describeError(chosen, value) };
  });
}

/** `at /properties/name/type: "strnig" is not a JSON Schema type name …; at …`. */
export function formatSchemaIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .map(
      (issue) => `at ${issue.path === "" ? "the root" : issue.path}: ${shown(issue.value)} ${issue.message}`,
    )
    .join("; ");
}

function describeError(error: SchemaViolation | undefined, value: unknown): string {
  if (error === undefined) return "is not valid here";
  const allowed = error.params.allowedValues;
  if (error.keyword === "enum" && Array.isArray(allowed)) {
    const names = allowed.filter((a): a is string => typeof a === "string");
    const close = typeof value === "string" ? didYouMean(value, names) : null;
    return `is not one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}${close ? ` (did you mean ${JSON.stringify(close)}?)` : ""}`;
  }
  return error.message;
}

/** The value at a JSON pointer (`/a/b~1c`). */
function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** One value violation as `"<instancePath> <message>"` (`(root)` for the top level), with the offending key or allowed values. */
export function describeViolation(error: SchemaViolation): string {
  const where = error.instancePath === "" ? "(root)" : error.instancePath;
  let detail = error.message;
  const params = error.params;
  if (error.keyword === "additionalProperties") detail += ` (${JSON.stringify(params.additionalProperty)})`;
  else if (error.keyword === "enum") detail += ` ${JSON.stringify(params.allowedValues)}`;
  else if (error.keyword === "const") detail += ` ${JSON.stringify(params.allowedValue)}`;
  return `${where} ${detail}`;
}

/** How many violations a failure's message names, and how many its `errors` keep. */
const VIOLATIONS_IN_MESSAGE = 5;
const MAX_VIOLATIONS = 50;

/**
 * A refused value's violations as every harness's structured-output failure reports them: `errors`, each
 * {@link describeViolation} once (at most 50), and `summary`, the first five joined with `; ` and `(+N more)`.
 */
export function violationReport(violations: readonly SchemaViolation[]): {
  errors: string[];
  summary: string;
} {
  const errors = [...new Set(violations.map(describeViolation))].slice(0, MAX_VIOLATIONS);
  if (errors.length === 0) errors.push("(root) does not match the schema");
  const shown = errors.slice(0, VIOLATIONS_IN_MESSAGE);
  const more = errors.length > shown.length ? ` (+${errors.length - shown.length} more)` : "";
  return { errors, summary: `${shown.join("; ")}${more}` };
}
