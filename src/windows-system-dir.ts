import path from "node:path";
import { windowsEnvValue } from "./windows-env.js";

/**
 * `%SystemRoot%\System32\<name>` from a Windows environment (read as a child would, see {@link windowsEnvValue};
 * `C:\Windows` when it is unset). A system program is started by this path, never by its bare name: Windows looks
 * a bare name up in the current directory before PATH, and that directory may be a repository with a file of that
 * name. Pure.
 */
export function windowsSystemExecutable(name: string, env: NodeJS.ProcessEnv): string {
  return path.win32.join(windowsEnvValue(env, "SystemRoot") ?? "C:\\Windows", "System32", name);
}
