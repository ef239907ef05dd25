/** The JSON Schema dialects a caller's schema may declare, and how `$schema` names them. Pure. */

export type Dialect = "draft-07" | "2019-09" | "2020-12";

/** `$schema` without scheme and trailing `#` → dialect. */
const DIALECTS: ReadonlyMap<string, Dialect> = new Map([
  ["json-schema.org/draft-07/schema", "draft-07"],
  ["json-schema.org/draft/2019-09/schema", "2019-09"],
  ["json-schema.org/draft/2020-12/schema", "2020-12"],
]);

/** Each dialect's meta-schema URI as its meta-schema's `$id` spells it. */
export const CANONICAL_URI: { readonly [dialect in Dialect]: string } = {
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/** The dialect a `$schema` value names (http or https, with or without the trailing `#`), or undefined. */
export function dialectNamed($schema: unknown): Dialect | undefined {
  if (typeof $schema !== "string") return undefined;
  return DIALECTS.get($schema.replace(/^https?:\/\//, "").replace(/#$/, ""));
}
