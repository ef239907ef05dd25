import path from "node:path";
import { windowsEnvValue } from "./windows-env.js";

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
