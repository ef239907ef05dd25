import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import type { Transport } from "../../src/jsonl/transport.js";
import { killLeftovers } from "../helpers/processes.js";

/** Absolute path of a fixture script in test/fixtures/process. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/process/${name}`, import.meta.url));
}

/** Resolves with the first frame the transport reads; rejects if it closes first. */
export function firstFrame(
  transport: Transport,
  describe: () => string = () => "",
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    transport.start({
      frame: resolve,
      invalid: () => {},
      closed: (reason) =>
        reject(new Error(`transport closed (${reason.type}) before a frame: ${describe()}`)),
    });
  });
}

/** Reads a number from a frame field, failing loudly when it is missing. */
export function pidOf(frame: Record<string, unknown>, key: string): number {
  const value = frame[key];
  if (typeof value !== "number") throw new Error(`frame has no numeric ${key}: ${JSON.stringify(frame)}`);
  return value;
}

/**
 * Registers an `afterEach` that SIGKILLs every pid added to `started` that still runs and then runs every
 * function pushed to `cleanups`. Call once at the top of a test file.
 */
export function cleanUpAfterEach(): { started: Set<number>; cleanups: Array<() => Promise<void>> } {
  const started = new Set<number>();
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    killLeftovers(started);
    started.clear();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return { started, cleanups };
}
