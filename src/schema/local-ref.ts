import { isRecord } from "../json-record.js";
import type { JsonSchemaObject } from "./json-schema.js";

/**
 * The local `$ref`s Rennet resolves itself: `"#"` (the root) and `"#/$defs/Name"` or `"#/definitions/Name"` (a
 * definition at the root). Each harness's schema handling shares this one resolver.
 */

/** `~` and `/` escaped for a JSON Pointer token. Pure. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A JSON Pointer token unescaped. Pure. */
function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** `pointer` extended by each token, escaped. Pure. */
export function childPointer(pointer: string, ...tokens: readonly (string | number)[]): string {
  return tokens.reduce<string>((acc, token) => `${acc}/${escapePointerToken(String(token))}`, pointer);
}

/** The root container (`$defs` or `definitions`) and the unescaped name a definition ref names; null otherwise. Pure. */
export function parseDefinitionRef(ref: string): { container: string; name: string } | null {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!match) return null;
  return { container: match[1] as string, name: unescapePointerToken(match[2] as string) };
}

export type LocalRefResolution =
  | { readonly ok: true; readonly target: JsonSchemaObject }
  /** `problem` says why, and how to fix the schema. */
  | { readonly ok: false; readonly problem: string };

/** Resolves a supported local `$ref` against `root` (own properties only). Pure. */
export function resolveLocalRef(root: JsonSchemaObject, ref: string): LocalRefResolution {
  if (ref === "#") return { ok: true, target: root };
  const parsed = parseDefinitionRef(ref);
  if (!parsed) {
    return {
      ok: false,
      problem: `$ref "${ref}" is not supported; only "#" and local definitions ("#/$defs/Name" or "#/definitions/Name") can be referenced; move the target into $defs at the root`,
    };
  }
  const container = root[parsed.container];
  const target =
    isRecord(container) && Object.hasOwn(container, parsed.name) ? container[parsed.name] : undefined;
  if (isRecord(target)) return { ok: true, target };
  return {
    ok: false,
    problem:
      target === undefined
        ? `$ref "${ref}" does not resolve; define "${parsed.name}" under ${parsed.container} at the root`
        : `$ref "${ref}" points at a boolean schema; strict mode needs a typed schema there`,
  };
}
