import { stat } from "node:fs/promises";
import type { FileInfo } from "./locus-host.js";

/**
 * What is wrong with a path given to be started as an executable (missing, unreadable, a directory, not a
 * regular file, not executable for this user), from what the host saw there; null when nothing is.
 */
export async function explicitFileProblem(
  file: string,
  info: FileInfo | null,
  platform: NodeJS.Platform,
): Promise<string | null> {
  if (info === null || info.kind === "broken-link") return whyNotThere(file);
  if (info.kind === "directory") return "is a directory";
  if (info.kind !== "file") return "is not a regular file";
  if (platform === "win32" || info.executable) return null;
  return "is not executable (no execute permission for this user)";
}

/** Why nothing usable was found at `file`: missing (a broken link too) or unreadable, by `stat`'s error code. */
async function whyNotThere(file: string): Promise<string> {
  return stat(file).then(
    () => "not found",
    (error: NodeJS.ErrnoException) =>
      error.code === "ENOENT" ? "not found" : `cannot be read (${error.code})`,
  );
}
