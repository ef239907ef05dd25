import { mkdir } from "node:fs/promises";
import path from "node:path";

/**
 * Creates `dir` and every missing directory above it (with `mode`), like `mkdir -p`; resolves when it exists
 * already. Rejects with the error of the first directory that cannot be made (`ENOTDIR` when a component is a
 * file). One `mkdir` per missing component and never a retry, so a file system that reports `ENOENT` for a
 * directory whose parent exists (procfs: a state directory under `/proc`) is an error, where Node's
 * `mkdir(…, { recursive: true })` loops on it forever and its promise never settles.
 */
export async function makeDirectories(dir: string, mode = 0o777): Promise<void> {
  const missing: string[] = [];
  for (let current = path.resolve(dir); ;) {
    const made = await makeOne(current, mode);
    if (made !== "ENOENT") break;
    const parent = path.dirname(current);
    if (parent === current) break;
    missing.push(current);
    current = parent;
  }
  for (const next of missing.reverse()) await makeOne(next, mode, true);
}

/** One `mkdir`: "made", "exists", or "ENOENT" (a parent is missing, unless `final`); any other error rejects. */
async function makeOne(dir: string, mode: number, final = false): Promise<"made" | "exists" | "ENOENT"> {
  try {
    await mkdir(dir, { mode });
    return "made";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return "exists";
    if (code === "ENOENT" && !final) return "ENOENT";
    throw error;
  }
}
