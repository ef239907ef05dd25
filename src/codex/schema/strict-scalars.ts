import type { JsonSchemaObject } from "../../schema/json-schema.js";
import {
  CHECKED_AFTERWARDS,
  KEPT_ANNOTATIONS,
  KEPT_CONSTRAINTS,
  STRICT_MODE_FORMATS,
} from "./strict-keywords.js";
import { strictTypes } from "./strict-types.js";

type Mutable = { [keyword: string]: unknown };

/** What a subschema's own keywords (everything but its subschemas) become in strict form. */
export interface StrictScalars {
  /** Annotations, `type`, `enum`/`const`, kept constraints and a supported `format`. */
  out: Mutable;
  /** The type names it gets (see `strictTypes`); null when none can be given. */
  types: string[] | null;
  /** Constraints strict mode cannot express, as `keyword=value`: checked on the answer, and named in the hint. */
  checkedAfterwards: string[];
}

/**
 * The scalar keywords of one subschema in strict form, in the order they are judged: annotations kept, the
 * type, `enum`/`const` (primitive values only), the constraints strict mode keeps, `format` where strict mode
 * knows it; what it cannot express goes to `checkedAfterwards`. Problems go to `issue`. Pure apart from `issue`.
 */
export function strictScalars(schema: JsonSchemaObject, issue: (message: string) => void): StrictScalars {
  const out: Mutable = {};
  for (const keyword of KEPT_ANNOTATIONS) {
    if (typeof schema[keyword] === "string") out[keyword] = schema[keyword];
  }
  const types = strictTypes(schema, issue);
  if (types !== null) out.type = types.length === 1 ? types[0] : types;
  for (const keyword of ["enum", "const"] as const) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const values = keyword === "enum" ? schema.enum : [schema.const];
    if (!Array.isArray(values) || (keyword === "enum" && values.length === 0)) {
      issue("enum must be a non-empty array");
      continue;
    }
    if (values.some((value) => typeof value === "object" && value !== null)) {
      issue(
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
  return { out, types, checkedAfterwards };
}

/**
 * Tells the model what strict mode could not: `Must satisfy: …` appended to the description (at most 300
 * characters). Mutates `out`.
 */
export function addCheckedAfterwardsHint(out: Mutable, checkedAfterwards: readonly string[]): void {
  if (checkedAfterwards.length === 0) return;
  let hint = `Must satisfy: ${checkedAfterwards.join(", ")}.`;
  if (hint.length > 300) hint = `${hint.slice(0, 299)}…`;
  out.description = typeof out.description === "string" ? `${out.description} ${hint}` : hint;
}
