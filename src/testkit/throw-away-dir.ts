import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * Creates a temporary directory named `prefix…` in `parentDir` (default `os.tmpdir()`) and lets `fill` write into
 * it. When `fill` throws, the directory is removed and the error rethrown: a half-made home is never left behind.
 */
export async function createThrowAwayDir(
  prefix: string,
  parentDir: string | undefined,
  fill: (dir: string) => Promise<void>,
): Promise<string> {
  const dir = await mkdtemp(path.join(parentDir ?? os.tmpdir(), prefix));
  try {
    await fill(dir);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** Removes a throw-away directory. Idempotent; retried briefly for files a just-exited process still held. */
export async function removeThrowAwayDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
}
