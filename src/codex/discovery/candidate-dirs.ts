import type { CandidateSource } from "../../discovery/discovery-types.js";
import { dirKey, envGet, pathApi, splitPathList } from "../../discovery/platform-env.js";
import { isWindowsStorePath } from "../../discovery/windows-cmd.js";

/**
 * One directory to look for Codex in. `dir` may contain `*` as a whole path segment (e.g.
 * `~/.nvm/versions/node/*\/bin`); a scanner expands it, newest version first.
 */
export interface CandidateDir {
  dir: string;
  source: CandidateSource;
  /** What the directory is, for the doctor report ("nvm node versions", "Homebrew", …). */
  label: string;
}

export interface CandidateDirsInput {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  homedir: string;
  /** The PATH printed by the user's login shell, or null when it could not be read. */
  loginShellPath: string | null;
  /** npm's configured prefix (from `~/.npmrc`), when known. */
  npmPrefix?: string | null;
  /** Prefix for system-wide absolute locations (`/usr/local/bin`, `/Applications`, …); tests point it at a temp dir. */
  systemRoot?: string;
  /** Inside WSL: the Windows user profile as a mount path (`/mnt/c/Users/bob`), for the desktop app's WSL CLI. */
  windowsProfileMount?: string | null;
}

/**
 * Every directory to look in, de-duplicated, in order: the login-shell PATH, the process PATH, the known
 * install locations, then desktop-app bundles. Pure.
 */
export function candidateDirs(input: CandidateDirsInput): CandidateDir[] {
  const { platform } = input;
  const out: CandidateDir[] = [];
  const seen = new Set<string>();
  const add = (dir: string | undefined | null, source: CandidateSource, label: string): void => {
    if (!dir) return;
    if (platform === "win32" && isWindowsStorePath(dir)) return;
    const key = dirKey(dir, platform);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ dir, source, label });
  };
  for (const dir of splitPathList(input.loginShellPath, platform))
    add(dir, "login-shell-path", "login-shell PATH");
  for (const dir of splitPathList(envGet(input.env, "PATH", platform), platform))
    add(dir, "process-path", "PATH");
  const known = platform === "win32" ? windowsKnownDirs(input) : posixKnownDirs(input);
  for (const [dir, label] of known) add(dir, "known-location", label);
  for (const [dir, label] of desktopAppDirs(input)) add(dir, "desktop-app", label);
  return out;
}

type Entry = [dir: string | undefined | null, label: string];

function posixKnownDirs(input: CandidateDirsInput): Entry[] {
  const p = pathApi(input.platform);
  const env = (name: string): string | undefined => envGet(input.env, name, input.platform);
  const home = input.homedir;
  const sys = (dir: string): string => (input.systemRoot ? p.join(input.systemRoot, dir) : dir);
  const xdgData = env("XDG_DATA_HOME") ?? p.join(home, ".local", "share");
  const darwin = input.platform === "darwin";
  const codexHome = env("CODEX_HOME") ?? p.join(home, ".codex");
  const npmPrefixEnv = env("npm_config_prefix") ?? env("NPM_CONFIG_PREFIX");
  const asdf = env("ASDF_DATA_DIR") ?? p.join(home, ".asdf");
  const mise = env("MISE_DATA_DIR") ?? p.join(xdgData, "mise");
  const fnmDirs = env("FNM_DIR")
    ? [env("FNM_DIR")]
    : darwin
      ? [p.join(home, "Library", "Application Support", "fnm"), p.join(home, ".fnm")]
      : [p.join(xdgData, "fnm"), p.join(home, ".fnm")];
  const nvm = env("NVM_DIR") ?? p.join(home, ".nvm");
  const pnpm = env("PNPM_HOME") ?? (darwin ? p.join(home, "Library", "pnpm") : p.join(xdgData, "pnpm"));
  return [
    [p.join(home, ".local", "bin"), "~/.local/bin (standalone installer)"],
    [p.join(codexHome, "packages", "standalone", "current", "bin"), "Codex standalone package"],
    [npmPrefixEnv && p.join(npmPrefixEnv, "bin"), "npm prefix (npm_config_prefix)"],
    [input.npmPrefix && p.join(input.npmPrefix, "bin"), "npm prefix (~/.npmrc)"],
    [p.join(home, ".npm-global", "bin"), "npm global (~/.npm-global)"],
    [sys("/usr/local/bin"), "/usr/local/bin"],
    [sys("/opt/homebrew/bin"), "Homebrew"],
    [sys("/home/linuxbrew/.linuxbrew/bin"), "Linuxbrew"],
    [p.join(env("VOLTA_HOME") ?? p.join(home, ".volta"), "bin"), "Volta"],
    [p.join(env("BUN_INSTALL") ?? p.join(home, ".bun"), "bin"), "bun"],
    [p.join(asdf, "shims"), "asdf shims"],
    [p.join(asdf, "installs", "nodejs", "*", "bin"), "asdf node installs"],
    [p.join(mise, "shims"), "mise shims"],
    [p.join(mise, "installs", "node", "*", "bin"), "mise node installs"],
    ...fnmDirs.flatMap((fnm): Entry[] => [
      [fnm && p.join(fnm, "aliases", "default", "bin"), "fnm default"],
      [fnm && p.join(fnm, "node-versions", "*", "installation", "bin"), "fnm node versions"],
    ]),
    [p.join(nvm, "versions", "node", "*", "bin"), "nvm node versions"],
    [pnpm, "pnpm home"],
    [p.join(home, ".yarn", "bin"), "yarn global"],
  ];
}

function windowsKnownDirs(input: CandidateDirsInput): Entry[] {
  const w = pathApi("win32");
  const env = (name: string): string | undefined => envGet(input.env, name, "win32");
  const home = env("USERPROFILE") ?? input.homedir;
  const appData = env("APPDATA") ?? w.join(home, "AppData", "Roaming");
  const localAppData = env("LOCALAPPDATA") ?? w.join(home, "AppData", "Local");
  const codexHome = env("CODEX_HOME") ?? w.join(home, ".codex");
  const programFiles = env("ProgramFiles") ?? "C:\\Program Files";
  return [
    [w.join(appData, "npm"), "npm global"],
    [env("npm_config_prefix") ?? env("NPM_CONFIG_PREFIX"), "npm prefix (npm_config_prefix)"],
    [input.npmPrefix, "npm prefix (.npmrc)"],
    [w.join(codexHome, "packages", "standalone", "current", "bin"), "Codex standalone package"],
    [w.join(home, ".local", "bin"), "~\\.local\\bin"],
    [w.join(localAppData, "Volta", "bin"), "Volta"],
    [w.join(env("BUN_INSTALL") ?? w.join(home, ".bun"), "bin"), "bun"],
    [env("PNPM_HOME") ?? w.join(localAppData, "pnpm"), "pnpm home"],
    [w.join(home, "scoop", "shims"), "scoop shims"],
    [env("NVM_SYMLINK"), "nvm-windows"],
    [w.join(programFiles, "nodejs"), "Node.js"],
    [
      w.join(env("FNM_DIR") ?? w.join(appData, "fnm"), "node-versions", "*", "installation"),
      "fnm node versions",
    ],
    [w.join(localAppData, "Microsoft", "WinGet", "Links"), "WinGet links"],
  ];
}

function desktopAppDirs(input: CandidateDirsInput): Entry[] {
  if (input.platform === "darwin") {
    const p = pathApi("darwin");
    const sys = (dir: string): string => (input.systemRoot ? p.join(input.systemRoot, dir) : dir);
    const entries: Entry[] = [];
    for (const app of ["ChatGPT.app", "Codex.app"]) {
      entries.push([sys(`/Applications/${app}/Contents/Resources`), `${app} bundle`]);
      entries.push([
        p.join(input.homedir, "Applications", app, "Contents", "Resources"),
        `~/Applications/${app} bundle`,
      ]);
    }
    return entries;
  }
  if (input.platform === "linux" && input.windowsProfileMount) {
    return [[`${input.windowsProfileMount}/.codex/bin/wsl/*`, "Windows Codex app's WSL CLI"]];
  }
  return [];
}
