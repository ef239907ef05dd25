import path from "node:path";

/** Characters `cmd.exe` interprets; each is escaped with `^`. */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

/** What `child_process.spawn` needs to run a `.cmd` shim with exactly the given arguments. */
export interface WindowsCmdLaunch {
  command: string;
  args: string[];
  windowsVerbatimArguments: true;
}

/**
 * Quotes one argument for a program that parses its command line with the MSVCRT rules (node.exe behind
 * npm's `codex.cmd`): backslashes before a quote and at the end are doubled, quotes are escaped.
 */
export function quoteMsvcrtArgument(arg: string): string {
  const escaped = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1");
  return `"${escaped}"`;
}

/**
 * Escapes one argument for `cmd.exe /d /s /c "…"` running a batch shim. Each metacharacter is escaped twice
 * (`^^^"`): once for the `cmd.exe` command line, once more because the shim re-parses its `%*`.
 */
export function escapeCmdShimArgument(arg: string): string {
  return quoteMsvcrtArgument(arg).replace(CMD_META, "^$1").replace(CMD_META, "^$1");
}

/** Escapes the shim's own path for the `cmd.exe` command line (spaces and metacharacters get `^`). */
export function escapeCmdCommand(file: string): string {
  return path.win32.normalize(file).replace(CMD_META, "^$1");
}

/**
 * The spawn for `<cmdFile> <args…>` through `cmd.exe`. Pure. Node refuses to spawn `.cmd` files without a
 * shell (CVE-2024-27980), and `shell: true` would let Node quote arguments with rules `cmd.exe` does not
 * follow; so the command line is built here and passed verbatim.
 */
export function windowsCmdLaunch(
  cmdFile: string,
  args: readonly string[],
  comspec = "cmd.exe",
): WindowsCmdLaunch {
  const line = [escapeCmdCommand(cmdFile), ...args.map(escapeCmdShimArgument)].join(" ");
  return { command: comspec, args: ["/d", "/s", "/c", `"${line}"`], windowsVerbatimArguments: true };
}

/** Store-packaged apps (the ChatGPT Microsoft Store package and its execution aliases) are never candidates. */
export function isWindowsStorePath(file: string): boolean {
  return /[\\/]WindowsApps([\\/]|$)/i.test(file);
}

/** File names looked for in each directory on Windows, best first. `codex.ps1` is never a candidate. */
export const WINDOWS_CODEX_NAMES = ["codex.exe", "codex.cmd"] as const;

/**
 * Where npm's package puts the native `codex.exe` relative to a global bin directory holding `codex.cmd`
 * (current and older layouts), best first. Pure.
 */
export function npmVendorExePaths(binDir: string, arch: string): string[] {
  const win = path.win32;
  const cpu = arch === "arm64" ? "arm64" : "x64";
  const triple = cpu === "arm64" ? "aarch64-pc-windows-msvc" : "x86_64-pc-windows-msvc";
  const modules = win.join(binDir, "node_modules");
  const pkg = win.join(modules, "@openai", "codex");
  const platformPkg = `codex-win32-${cpu}`;
  return [
    win.join(pkg, "node_modules", "@openai", platformPkg, "vendor", triple, "bin", "codex.exe"),
    win.join(modules, "@openai", platformPkg, "vendor", triple, "bin", "codex.exe"),
    win.join(pkg, "vendor", triple, "bin", "codex.exe"),
    win.join(pkg, "vendor", triple, "codex", "codex.exe"),
  ];
}
