import path from "node:path";

/** `path.win32` or `path.posix` for a platform that may not be the one this process runs on. */
export function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

/** Reads an environment variable; names are case-insensitive on Windows (`Path`, `PATH`). Empty = unset. */
export function envGet(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== "win32") return env[name] || undefined;
  const wanted = name.toLowerCase();
  let found: string | undefined;
  for (const [key, value] of Object.entries(env)) {
    if (key.toLowerCase() === wanted && value) found = value;
  }
  return found;
}

/** Splits a PATH value into directories (`;` on Windows, `:` elsewhere), dropping empty and quoted noise. */
export function splitPathList(value: string | undefined | null, platform: NodeJS.Platform): string[] {
  if (!value) return [];
  const delimiter = platform === "win32" ? ";" : ":";
  return value
    .split(delimiter)
    .map((entry) => (platform === "win32" ? entry.replace(/^"(.*)"$/, "$1") : entry).trim())
    .filter((entry) => entry.length > 0);
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
