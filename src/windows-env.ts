import path from "node:path";

/**
 * The value of variable `name` a child started with `env` gets on Windows, where names have no case. An object
 * may hold several case-variants of one name (`{ ...process.env, PATH: … }` keeps the inherited `Path` too), and
 * Node's spawn passes only the first of them in sorted key order, leaving the variable out when that key's value
 * is undefined; every lookup reads that same key, so what Rennet reads is what the child sees. Empty = unset. Pure.
 */
export function windowsEnvValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const wanted = name.toUpperCase();
  let kept: string | undefined;
  for (const key of Object.keys(env)) {
    if (key.toUpperCase() === wanted && (kept === undefined || key < kept)) kept = key;
  }
  return kept === undefined ? undefined : env[kept] || undefined;
}

/**
 * `%SystemRoot%\System32\<name>` from a Windows environment (read as a child would, see {@link windowsEnvValue};
 * `C:\Windows` when it is unset or not an absolute path). A system program is started by this path, never by its
 * bare name or a relative path: Windows looks those up in the child's current directory, and that directory may be
 * a repository with a file of that name. Pure.
 */
export function windowsSystemExecutable(name: string, env: NodeJS.ProcessEnv): string {
  return path.win32.join(
    absoluteWindowsPath(windowsEnvValue(env, "SystemRoot")) ?? "C:\\Windows",
    "System32",
    name,
  );
}

/** `value` when it is an absolute Windows path (`C:\…`, `\\server\share\…`), else undefined. Pure. */
export function absoluteWindowsPath(value: string | undefined): string | undefined {
  return value !== undefined && /^(?:[A-Za-z]:[\\/]|[\\/]{2}[^\\/])/.test(value) ? value : undefined;
}
