import path from "node:path";
import { windowsEnvValue } from "../windows-env.js";

/** `path.win32` or `path.posix` for a platform that may not be the one this process runs on. */
export function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

/**
 * Reads an environment variable as a child started with `env` would see it; names are case-insensitive on Windows
 * (`Path`, `PATH`: of several, the one Node's spawn keeps, see {@link windowsEnvValue}). Empty = unset.
 */
export function envGet(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== "win32") return env[name] || undefined;
  return windowsEnvValue(env, name);
}

/**
 * `env` with each variable of `names` that holds a relative path resolved against the process's current
 * directory; `env` itself when none does.
 */
export function withAbsoluteDirs(
  env: NodeJS.ProcessEnv,
  names: readonly string[],
  platform: NodeJS.Platform,
): NodeJS.ProcessEnv {
  let out = env;
  for (const name of names) {
    const value = envGet(env, name, platform);
    if (value !== undefined && unsearchableDirReason(value, platform) !== null)
      out = { ...out, [name]: pathApi(platform).resolve(value) };
  }
  return out;
}

/**
 * `env` for a child that starts in a repository: on POSIX its PATH keeps only the entries
 * {@link unsearchableDirReason} accepts (absolute ones), in order, since an empty or relative entry would make a
 * shell or `execvp` in the child look up commands (`rg`, `git`, `node`) in the repository. `env` itself when
 * nothing is dropped. Windows looks in the current directory first whatever PATH holds: left as it is. Pure.
 */
export function withSearchablePath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): NodeJS.ProcessEnv {
  const value = env.PATH;
  if (platform === "win32" || value === undefined) return env;
  const kept = value.split(":").filter((entry) => unsearchableDirReason(entry, platform) === null);
  const searchable = kept.join(":");
  return searchable === value ? env : { ...env, PATH: searchable };
}

/** Splits a PATH value into directories (`;` on Windows, `:` elsewhere), dropping empty and quoted noise. */
export function splitPathList(value: string | undefined | null, platform: NodeJS.Platform): string[] {
  return pathEntries(value, platform).filter((entry) => entry.length > 0);
}

/** Every entry of a PATH value, trimmed and unquoted (Windows), empty ones included. Pure. */
export function pathEntries(value: string | undefined | null, platform: NodeJS.Platform): string[] {
  if (!value) return [];
  const delimiter = platform === "win32" ? ";" : ":";
  return value
    .split(delimiter)
    .map((entry) => (platform === "win32" ? entry.replace(/^"(.*)"$/, "$1") : entry).trim());
}

/**
 * Why a directory may not be searched for an executable, or null when it may: only an absolute path names the
 * same directory for every process. A relative entry (`bin`, `.`, `~/x`, which PATH never expands), an empty one
 * (a shell's current directory) and, on Windows, one without a drive or server (`C:foo`, `\foo`, `.\bin`) would
 * resolve against whatever directory a process starts in: for the probes and the session that is the repository,
 * so the repository could supply the executable. Pure.
 */
export function unsearchableDirReason(dir: string, platform: NodeJS.Platform): string | null {
  if (dir.length === 0) return "empty (a shell would search the current directory)";
  if (platform === "win32") {
    if (/^[A-Za-z]:[\\/]/.test(dir) || /^[\\/]{2}[^\\/]/.test(dir)) return null;
    if (/^[A-Za-z]:/.test(dir))
      return "not an absolute path (relative to the current directory of its drive)";
    if (/^[\\/]/.test(dir)) return "not an absolute path (no drive letter: relative to the current drive)";
  } else if (dir.startsWith("/")) {
    return null;
  }
  if (dir.startsWith("~")) return "not an absolute path (PATH does not expand `~`)";
  return "not an absolute path (it would resolve against the working directory)";
}

/** Joins directories into a PATH value for a platform. */
export function joinPathList(dirs: readonly string[], platform: NodeJS.Platform): string {
  return dirs.join(platform === "win32" ? ";" : ":");
}

/** A key that treats `/a/b/` and `/a/b` (and, on Windows, `C:\A` and `c:\a\`) as the same directory. */
export function dirKey(dir: string, platform: NodeJS.Platform): string {
  const p = pathApi(platform);
  const normalized = p.normalize(dir);
  const trimmed = normalized.length > 1 ? normalized.replace(/[\\/]+$/, "") || normalized : normalized;
  return platform === "win32" ? trimmed.toLowerCase() : trimmed;
}

/** Keeps the first occurrence of each directory, in order. */
export function dedupeDirs(dirs: readonly string[], platform: NodeJS.Platform): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of dirs) {
    const key = dirKey(dir, platform);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(dir);
  }
  return out;
}
