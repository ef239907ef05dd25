/**
 * A value as a message shows it: its JSON text, else (a bigint, a symbol, a function, a cycle, a throwing
 * `toJSON`) `String(value)`, else its `Object.prototype.toString` tag. Never throws: for values a caller's
 * callback or signal handed over, which may be anything. Pure.
 */
export function valueText(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    if (typeof json === "string") return json;
  } catch {
    // not JSON: shown as a string below
  }
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
