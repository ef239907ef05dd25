import { readdir } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";

/** Checks shared by the tests that run many sessions at once. */

/** The pid `session.started` reported for the app-server, or null when there is none yet. */
export function appServerPid(events: readonly HarnessEvent[]): number | null {
  for (const event of events) if (event.type === "session.started") return event.pid;
  return null;
}

/**
 * Asserts the `--json` stream contract of one finished session: exactly one terminal frame, and it is the last
 * frame. Returns that frame.
 */
export function onlyTerminal(events: readonly HarnessEvent[], describe: () => string): TerminalEvent {
  const terminals = events.filter((event): event is TerminalEvent => event.type === "terminal");
  const last = events.at(-1);
  if (terminals.length !== 1 || last?.type !== "terminal")
    throw new Error(`expected exactly one terminal frame, last; got ${terminals.length}: ${describe()}`);
  return last;
}

/**
 * Polls a registry directory and remembers the most entries seen at once, to show that sessions overlapped
 * (each one's reaper then ran while others' entries were live).
 */
export function watchRegistryPeak(registryDir: string, intervalMs = 20): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const names = await readdir(registryDir).catch(() => []);
      peak = Math.max(peak, names.filter((name) => name.endsWith(".json")).length);
      await sleep(intervalMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}
