/**
 * A clock that returns the current time as an ISO 8601 string, read once per synchronous burst: every event
 * stamped before the next microtask shares one string (a chunk of the child's output becomes hundreds of events
 * within a millisecond or two), so a flood costs one `Date` per burst instead of a clock read per event. An
 * event's time is that of the start of the burst it was made in.
 * `now`, when given, is used as is (every call formatted), so tests can fix the time.
 */
export function isoClock(now?: () => Date): () => string {
  if (now) return () => now().toISOString();
  let burst: string | null = null;
  const endBurst = (): void => {
    burst = null;
  };
  return () => {
    if (burst === null) {
      burst = new Date().toISOString();
      queueMicrotask(endBurst);
    }
    return burst;
  };
}
