import path from "node:path";
import type { CandidateDirsInput, OwnDir } from "../../discovery/candidate-dirs.js";
import type { CompanionLookup } from "../../discovery/executable-spec.js";
import type { FoundFile } from "../../discovery/locus-host.js";
import { envGet, pathApi } from "../../discovery/platform-env.js";

/** File names looked for in each directory on Windows, best first. `codex.ps1` is never a candidate. */
export const WINDOWS_CODEX_NAMES = ["codex.exe", "codex.cmd"] as const;

/** The file names looked for on a platform. */
export function codexFileNames(platform: NodeJS.Platform): readonly string[] {
  return platform === "win32" ? WINDOWS_CODEX_NAMES : ["codex"];
}

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

/** On Windows, a `codex.cmd` from npm brings the package's native `codex.exe` (its vendor folder) along. Pure. */
export function codexCompanions(
  file: FoundFile,
  platform: NodeJS.Platform,
  arch: string,
): CompanionLookup | null {
  if (platform !== "win32" || !/\.cmd$/i.test(file.path)) return null;
  return { paths: npmVendorExePaths(file.dir, arch), label: "npm package's codex.exe" };
}

/**
 * The directories only Codex installs into: the standalone package under `CODEX_HOME` (a known location), and
 * the CLIs of the desktop apps (ranked below every user-installed one): ChatGPT.app / Codex.app on macOS, the
 * Windows Codex app's Linux CLI inside WSL. Pure.
 */
export function codexOwnDirs(input: CandidateDirsInput): OwnDir[] {
  const p = pathApi(input.platform);
  const env = (name: string): string | undefined => envGet(input.env, name, input.platform);
  const home = (input.platform === "win32" ? env("USERPROFILE") : undefined) ?? input.homedir;
  const codexHome = env("CODEX_HOME") ?? p.join(home, ".codex");
  const standalone: OwnDir = {
    dir: p.join(codexHome, "packages", "standalone", "current", "bin"),
    source: "known-location",
    label: "Codex standalone package",
  };
  return [standalone, ...desktopAppDirs(input)];
}

function desktopAppDirs(input: CandidateDirsInput): OwnDir[] {
  const app = (dir: string, label: string): OwnDir => ({ dir, source: "desktop-app", label });
  if (input.platform === "darwin") {
    const p = pathApi("darwin");
    const sys = (dir: string): string => (input.systemRoot ? p.join(input.systemRoot, dir) : dir);
    return ["ChatGPT.app", "Codex.app"].flatMap((bundle) => [
      app(sys(`/Applications/${bundle}/Contents/Resources`), `${bundle} bundle`),
      app(
        p.join(input.homedir, "Applications", bundle, "Contents", "Resources"),
        `~/Applications/${bundle} bundle`,
      ),
    ]);
  }
  if (input.platform === "linux" && input.windowsProfileMount) {
    return [app(`${input.windowsProfileMount}/.codex/bin/wsl/*`, "Windows Codex app's WSL CLI")];
  }
  return [];
}
