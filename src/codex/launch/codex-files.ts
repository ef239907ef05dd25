import path from "node:path";

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
