/**
 * Follows the locations a validator reports: a `keywordLocation` (`#/properties/a/$ref/minLength`) through the
 * `$ref`s it crosses to the keyword and its value, and an `instanceLocation` (`#/a/0`) to the keys of the value.
 * Both tolerate segments that are not escaped (a key `a/b` may appear as two segments). Pure.
 */

/** Keywords whose value maps names to schemas: the segment after them is a name, not a keyword. */
const SCHEMA_MAPS = new Set([
  "properties",
  "patternProperties",
  "definitions",
  "$defs",
  "dependentSchemas",
  "dependencies",
  "dependentRequired",
]);
/** Keywords that hold data, not schemas: their `$id`s and anchors are not resources. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** A base URI for a root schema without `$id`. */
const ROOT_BASE = "https://rennet.invalid/schema";

/** Where a keyword location ends. */
export interface KeywordAt {
  /** The keyword, or the keyword of the map whose member the location ends at (`dependentRequired`, `properties`). */
  keyword: string;
  /** The member the location ends at (`dependentRequired/a` → `a`), if any. */
  member?: string;
  /** The value there (undefined when the location could not be followed). */
  value: unknown;
  /** The schema object holding the keyword. */
  parent: Record<string, unknown> | undefined;
  /** Every keyword crossed on the way (`propertyNames` tells an error about a property name). */
  keywords: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function decoded(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The own member named by segments `from…`, trying one segment first, then two joined by `/`, and so on. */
function member(node: unknown, segments: readonly string[], from: number): { key: string; next: number } {
  if (typeof node === "object" && node !== null) {
    for (let end = from + 1; end <= segments.length; end++) {
      const raw = segments.slice(from, end).join("/");
      for (const key of [raw, decoded(raw)]) if (Object.hasOwn(node, key)) return { key, next: end };
    }
  }
  return { key: decoded(segments.slice(from).join("/")), next: segments.length };
}

function segmentsOf(location: string): string[] {
  const pointer = location.startsWith("#") ? location.slice(1) : location;
  return pointer === "" ? [] : pointer.split("/").slice(1);
}

/** The keys an instance location names in `data` (the last may be absent from it: a missing property). */
export function instanceKeys(data: unknown, location: string): string[] {
  const segments = segmentsOf(location);
  const keys: string[] = [];
  let node = data;
  for (let at = 0; at < segments.length;) {
    const { key, next } = member(node, segments, at);
    keys.push(key);
    node = typeof node === "object" && node !== null ? (node as Json)[key] : undefined;
    at = next;
  }
  return keys;
}

/** The value of `data` at `keys`. */
export function valueAtKeys(data: unknown, keys: readonly string[]): unknown {
  let node = data;
  for (const key of keys) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** A schema and the documents it may reference, indexed by `$id` and anchors. */
export class SchemaLocations {
  private readonly resources = new Map<string, unknown>();

  constructor(
    private readonly root: unknown,
    documents: readonly unknown[] = [],
  ) {
    this.resources.set(ROOT_BASE, root);
    for (const document of [root, ...documents]) this.index(document, ROOT_BASE);
  }

  private index(node: unknown, base: string): void {
    if (Array.isArray(node)) for (const item of node) this.index(item, base);
    if (!isObject(node)) return;
    let here = base;
    if (typeof node.$id === "string" && node.$id.startsWith("#"))
      this.resources.set(`${base}${node.$id}`, node);
    else if (typeof node.$id === "string") {
      here = withoutFragment(node.$id, base);
      this.resources.set(here, node);
    }
    for (const anchor of [node.$anchor, node.$dynamicAnchor]) {
      if (typeof anchor === "string") this.resources.set(`${here}#${anchor}`, node);
    }
    for (const [key, value] of Object.entries(node)) if (!DATA_KEYWORDS.has(key)) this.index(value, here);
  }

  /** The base URI of a schema object (its `$id` resolved against `base`). */
  private baseOf(node: unknown, base: string): string {
    return isObject(node) && typeof node.$id === "string" && !node.$id.startsWith("#")
      ? withoutFragment(node.$id, base)
      : base;
  }

  private resolve(ref: string, base: string, kind: string): { node: unknown; base: string } | undefined {
    // The outermost dynamic scope is the root: a dynamic reference lands on it when it holds the anchor.
    const root = this.root;
    if (isObject(root)) {
      if (kind === "$recursiveRef" && root.$recursiveAnchor === true) return { node: root, base: ROOT_BASE };
      if (kind === "$dynamicRef" && ref.startsWith("#") && root.$dynamicAnchor === ref.slice(1)) {
        return { node: root, base: this.baseOf(root, ROOT_BASE) };
      }
    }
    let url: URL;
    try {
      url = new URL(ref, base);
    } catch {
      return undefined;
    }
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    const document = this.resources.get(url.href);
    if (fragment === "") return document === undefined ? undefined : { node: document, base: url.href };
    if (!fragment.startsWith("/")) {
      const anchored = this.resources.get(`${url.href}#${fragment}`);
      return anchored === undefined ? undefined : { node: anchored, base: url.href };
    }
    return { node: valueAtKeys(document, fragment.split("/").slice(1).map(decoded)), base: url.href };
  }

  /** The keyword a keyword location ends at, following `$ref`, `$recursiveRef` and `$dynamicRef`. */
  locate(location: string): KeywordAt {
    const segments = segmentsOf(location);
    const at: KeywordAt = { keyword: "", value: this.root, parent: undefined, keywords: [] };
    let base = this.baseOf(this.root, ROOT_BASE);
    let inMap = false;
    for (let index = 0; index < segments.length;) {
      const holder = at.value;
      const { key, next } = member(holder, segments, index);
      index = next;
      const value = typeof holder === "object" && holder !== null ? (holder as Json)[key] : undefined;
      if (inMap || Array.isArray(holder)) {
        at.member = key;
        at.value = value;
        inMap = false;
        continue;
      }
      if (!isObject(holder)) return { ...at, keyword: key, value: undefined, parent: undefined };
      base = this.baseOf(holder, base);
      Object.assign(at, { keyword: key, parent: holder, value, member: undefined });
      at.keywords.push(key);
      inMap = SCHEMA_MAPS.has(key);
      if (typeof value === "string" && (key === "$ref" || key === "$recursiveRef" || key === "$dynamicRef")) {
        const target = this.resolve(value, base, key);
        if (target === undefined) return { ...at, value: undefined };
        at.value = target.node;
        base = this.baseOf(target.node, target.base);
      }
    }
    return at;
  }
}

function withoutFragment(id: string, base: string): string {
  try {
    const url = new URL(id, base);
    url.hash = "";
    return url.href;
  } catch {
    return base;
  }
}
