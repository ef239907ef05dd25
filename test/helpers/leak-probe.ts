import { getEventListeners } from "node:events";
import { readdirSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** Process events a library could leave listeners on. */
const PROCESS_EVENTS = [
  "SIGINT",
  "SIGTERM",
  "SIGHUP",
  "exit",
  "beforeExit",
  "uncaughtException",
  "unhandledRejection",
  "warning",
] as const;

/** What a leak would leave behind in this process, counted. */
export interface ResourceCounts {
  /** Open file descriptors (`/proc/self/fd`); null where that cannot be read. */
  fds: number | null;
  /** `process.getActiveResourcesInfo()` by type (timers, pipes, child processes, …). */
  resources: Record<string, number>;
  /** Listeners on process events, by event. */
  processListeners: Record<string, number>;
}

export function countResources(): ResourceCounts {
  let fds: number | null;
  try {
    fds = readdirSync("/proc/self/fd").length;
  } catch {
    fds = null;
  }
  const resources: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) resources[type] = (resources[type] ?? 0) + 1;
  const processListeners: Record<string, number> = {};
  for (const event of PROCESS_EVENTS) processListeners[event] = process.listenerCount(event);
  return { fds, resources, processListeners };
}

/** Every count in `now` above its `baseline`, described (empty: nothing grew). */
export function growth(baseline: ResourceCounts, now: ResourceCounts): string[] {
  const grown: string[] = [];
  if (baseline.fds !== null && now.fds !== null && now.fds > baseline.fds)
    grown.push(`fds ${baseline.fds} → ${now.fds}`);
  for (const [type, count] of Object.entries(now.resources)) {
    const before = baseline.resources[type] ?? 0;
    if (count > before) grown.push(`${type} ${before} → ${count}`);
  }
  for (const [event, count] of Object.entries(now.processListeners)) {
    const before = baseline.processListeners[event] ?? 0;
    if (count > before) grown.push(`process '${event}' listeners ${before} → ${count}`);
  }
  return grown;
}

/**
 * Waits until nothing counted is above `baseline` (what a finished session releases may close a few turns of
 * the event loop after its `result` settled), at most `withinMs`; returns what is still above it then.
 */
export async function growthAfterSettling(baseline: ResourceCounts, withinMs = 1000): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const grown = growth(baseline, countResources());
    if (grown.length === 0 || Date.now() >= deadline) return grown;
    await sleep(20);
  }
}

/** Records the process warnings emitted while it is on (Node emits them on a later tick: `stop` waits one). */
export function recordWarnings(): { warnings: Error[]; stop(): Promise<Error[]> } {
  const warnings: Error[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(warning);
  };
  process.on("warning", onWarning);
  return {
    warnings,
    async stop() {
      await sleep(10);
      process.off("warning", onWarning);
      return warnings;
    },
  };
}

/** Listeners on a signal's `abort` event. */
export function abortListenerCount(signal: AbortSignal): number {
  return getEventListeners(signal, "abort").length;
}
