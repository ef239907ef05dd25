import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import type { Transport } from "../../src/jsonl/transport.js";
import { isRunningState, parseProcStat } from "../../src/process/process-table-parse.js";

/** Absolute path of a fixture script in test/fixtures/process. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/process/${name}`, import.meta.url));
}

/** True while the pid names a running process (a zombie counts as gone: it can no longer do anything). */
export function isRunning(pid: number): boolean {
  try {
    const info = parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
    return info !== null && isRunningState(info.state);
  } catch {
    return false;
  }
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

/** SIGKILLs what a failed test may have left running (best effort; pids of this test only). */
export function killLeftovers(pids: Iterable<number>): void {
  for (const pid of pids) {
    if (!isRunning(pid)) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** A fresh temp directory and its removal. */
export async function makeTempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `rennet-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Reads a number from a frame field, failing loudly when it is missing. */
export function pidOf(frame: Record<string, unknown>, key: string): number {
  const value = frame[key];
  if (typeof value !== "number") throw new Error(`frame has no numeric ${key}: ${JSON.stringify(frame)}`);
  return value;
}

/**
 * Registers an `afterEach` that SIGKILLs every pid added to `started` that still runs and then runs every
 * function pushed to `cleanups` (temp directory removals). Call once at the top of a test file.
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

export { waitUntil } from "../helpers/wait-until.js";
