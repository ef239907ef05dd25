import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";

/** A fresh directory under the OS temp directory (`rennet-<prefix>-…`) and its removal. */
export async function makeTempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `rennet-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A fresh temp directory that is removed when the current test finishes (call it inside a test). */
export async function tempDir(prefix: string): Promise<string> {
  const { dir, remove } = await makeTempDir(prefix);
  onTestFinished(remove);
  return dir;
}

/** A spawn-registry directory of the current test's own (removed when it finishes). */
export function tempRegistry(): Promise<string> {
  return tempDir("registry");
}
