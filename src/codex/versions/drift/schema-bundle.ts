/**
 * Read access to the bundle `codex app-server generate-json-schema` writes
 * (`codex_app_server_protocol.schemas.json`). Types live in `definitions` (v1 and shared) and
 * `definitions.v2`; `$ref`s are local JSON pointers. Pure.
 */
import { isRecord } from "../../../json-record.js";

type Node = Record<string, unknown>;

/** The bundle's file name inside the `--out` directory. */
export const SCHEMA_BUNDLE_FILE = "codex_app_server_protocol.schemas.json";

/** Resolves a local `$ref` pointer; null when it does not resolve. */
function pointer(bundle: unknown, ref: unknown): unknown {
  if (typeof ref !== "string" || !ref.startsWith("#/")) return null;
  let node: unknown = bundle;
  for (const raw of ref.slice(2).split("/")) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isRecord(node) || !Object.hasOwn(node, part)) return null;
    node = node[part];
  }
  return node;
}

/** Follows `$ref` and single-member `allOf` chains to the node that holds the shape. */
export function deref(bundle: unknown, node: unknown, depth = 0): Node | null {
  if (!isRecord(node) || depth > 20) return null;
  if (typeof node.$ref === "string") return deref(bundle, pointer(bundle, node.$ref), depth + 1);
  if (Array.isArray(node.allOf) && node.allOf.length === 1) return deref(bundle, node.allOf[0], depth + 1);
  return node;
}

/** The non-null members of a union (`oneOf`/`anyOf`), dereferenced; a plain node is its own only member. */
function members(bundle: unknown, node: unknown, depth = 0): Node[] {
  const shape = deref(bundle, node);
  if (!shape || depth > 20) return [];
  const list = shape.oneOf ?? shape.anyOf;
  if (!Array.isArray(list)) return [shape];
  return list
    .map((m) => deref(bundle, m))
    .filter((m): m is Node => m !== null && m.type !== "null")
    .flatMap((m) => ((m.oneOf ?? m.anyOf) && !m.properties ? members(bundle, m, depth + 1) : [m]));
}

/** The string values a node admits (enum members, consts); `open` when any string is admitted. */
export function stringValues(bundle: unknown, node: unknown): { values: string[]; open: boolean } {
  const values: string[] = [];
  let open = false;
  for (const m of members(bundle, node)) {
    if (Array.isArray(m.enum)) values.push(...m.enum.filter((v): v is string => typeof v === "string"));
    else if (typeof m.const === "string") values.push(m.const);
    else if (m.type === "string" || (Array.isArray(m.type) && m.type.includes("string"))) open = true;
  }
  return { values: [...new Set(values)], open };
}

/** The `type` tag of each variant of a tagged union (SandboxPolicy, UserInput, ThreadItem, …). */
export function variantTags(bundle: unknown, node: unknown, tag = "type"): string[] {
  const out: string[] = [];
  for (const m of members(bundle, node)) {
    const prop = deref(bundle, isRecord(m.properties) ? m.properties[tag] : undefined);
    if (Array.isArray(prop?.enum)) out.push(...prop.enum.filter((v): v is string => typeof v === "string"));
    else if (typeof prop?.const === "string") out.push(prop.const);
  }
  return [...new Set(out)];
}

/** Method name → params node of a method union (`ClientRequest`, `ServerNotification`, `ServerRequest`). */
export function methodEntries(bundle: unknown, unionName: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const m of members(bundle, pointer(bundle, `#/definitions/${unionName}`))) {
    const properties = isRecord(m.properties) ? m.properties : {};
    const method = deref(bundle, properties.method);
    const name = Array.isArray(method?.enum) ? method.enum[0] : method?.const;
    if (typeof name === "string") out.set(name, properties.params ?? null);
  }
  return out;
}

/** A named type, v2 first. */
export function definition(bundle: unknown, name: string): Node | null {
  return deref(
    bundle,
    pointer(bundle, `#/definitions/v2/${name}`) ?? pointer(bundle, `#/definitions/${name}`),
  );
}

/** A property of an object node, dereferenced; undefined when the node has no such property. */
export function property(bundle: unknown, node: Node | null, name: string): Node | null | undefined {
  const properties = node && isRecord(node.properties) ? node.properties : null;
  if (!properties || !Object.hasOwn(properties, name)) return undefined;
  return deref(bundle, properties[name]) ?? {};
}
