/**
 * How deeply a caller's schema nests objects and arrays, checked before anything recursive (the meta-schema
 * validator, the compiler, the strict normalizer, `JSON.stringify`) walks it and could exhaust the stack.
 */

/** The deepest nesting of objects and arrays a schema may have: as for one frame of an agent's stream. */
export const MAX_SCHEMA_DEPTH = 512;

/**
 * True when `schema` nests objects and arrays more than {@link MAX_SCHEMA_DEPTH} deep, or contains itself (an
 * object inside its own subtree). Iterative; an object already walked at the same or a shallower depth (one
 * subschema object used in several places) is not walked again.
 */
export function exceedsSchemaDepth(schema: unknown): boolean {
  const walked = new Map<object, number>();
  const onPath = new Set<object>();
  const pending: { node: unknown; depth: number; leaving: boolean }[] = [
    { node: schema, depth: 1, leaving: false },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, depth, leaving } = next;
    if (typeof node !== "object" || node === null) continue;
    if (leaving) {
      onPath.delete(node);
      walked.set(node, Math.min(depth, walked.get(node) ?? depth));
      continue;
    }
    if (depth > MAX_SCHEMA_DEPTH || onPath.has(node)) return true;
    const seen = walked.get(node);
    if (seen !== undefined && seen <= depth) continue;
    onPath.add(node);
    pending.push({ node, depth, leaving: true });
    for (const child of Object.values(node)) pending.push({ node: child, depth: depth + 1, leaving: false });
  }
  return false;
}
