import path from "node:path";

/**
 * `%SystemRoot%\System32\<name>` from a Windows environment (the variable's name in any case; `C:\Windows` when it
 * is unset). A system program is started by this path, never by its bare name: Windows looks a bare name up in
 * the current directory before PATH, and that directory may be a repository with a file of that name. Pure.
 */
export function windowsSystemExecutable(name: string, env: NodeJS.ProcessEnv): string {
  let root: string | undefined;
  for (const [key, value] of Object.entries(env))
    if (key.toLowerCase() === "systemroot" && value) root = value;
  return path.win32.join(root ?? "C:\\Windows", "System32", name);
}
