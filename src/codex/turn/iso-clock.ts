/**
 * A clock that returns the current time as an ISO 8601 string, formatted once per millisecond: a burst of
 * events within one millisecond shares one string instead of allocating a `Date` and a string each.
 * `now`, when given, is used as is (every call formatted), so tests can fix the time.
 */
export function isoClock(now?: () => Date): () => string {
  if (now) return () => now().toISOString();
  let lastMs = Number.NaN;
  let lastIso = "";
  return () => {
    const ms = Date.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  };
}
