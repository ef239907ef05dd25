/** Tolerant reading of decoded JSON: is a value a plain object (not null, not an array)? Pure. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value as a plain object, or an empty one when it is not an object. Pure. */
export function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/**
 * Is a value a plain object: a record whose prototype is `Object.prototype` or null, not a `Date`, `Map` or
 * other class instance? For merging configuration objects, where those are values, not tables. Pure.
 */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
