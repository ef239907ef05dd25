import type { CandidateSource } from "./discovery-types.js";
import { dirKey, envGet, pathApi, pathEntries, unsearchableDirReason } from "./platform-env.js";
import { isWindowsStorePath } from "./windows-cmd.js";

/**
 * One directory to look in. `dir` may contain `*` as a whole path segment (e.g.
 * `~/.nvm/versions/node/*\/bin`); a scanner expands it, newest version first.
 */
export interface CandidateDir {
  dir: string;
  source: CandidateSource;
  /** What the directory is, for the doctor report ("nvm node versions", "Homebrew", …). */
  label: string;
}

/** A directory only one CLI installs into (its standalone installer, an app bundle), supplied by its spec. */
export interface OwnDir extends CandidateDir {
  source: "known-location" | "desktop-app";
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
  /** Inside WSL: the Windows user profile as a mount path (`/mnt/c/Users/bob`). */
  windowsProfileMount?: string | null;
}

/** A directory that is never searched, with where it came from and why (see {@link unsearchableDirReason}). */
export interface SkippedDir {
  /** The entry as given (a PATH entry, or a known location built from a relative variable such as HOME). */
  dir: string;
  source: CandidateSource;
  label: string;
  reason: string;
}

/**
 * Every directory to look in, de-duplicated (first occurrence wins), in order: the login-shell PATH, the process
 * PATH, the known install locations with the CLI's own `known-location` dirs among them (after `~/.local/bin` on
 * POSIX, after npm's global dirs on Windows, before the version managers), then its `desktop-app` dirs. Only
 * absolute directories are returned. Pure.
 */
export function candidateDirs(input: CandidateDirsInput, own: readonly OwnDir[] = []): CandidateDir[] {
  return candidateDirSearch(input, own).dirs;
}

/**
 * {@link candidateDirs}, and every directory left out because it is not absolute (each entry once, in order; an
 * empty PATH entry is reported on POSIX only, where a shell would search the current directory for it). Pure.
 */
export function candidateDirSearch(
  input: CandidateDirsInput,
  own: readonly OwnDir[] = [],
): { dirs: CandidateDir[]; skipped: SkippedDir[] } {
  const { platform } = input;
  const out: CandidateDir[] = [];
  const skipped: SkippedDir[] = [];
  const seen = new Set<string>();
  const add = (dir: string | undefined | null, source: CandidateSource, label: string): void => {
    if (dir === undefined || dir === null || (dir === "" && platform === "win32")) return;
    const unsearchable = unsearchableDirReason(dir, platform);
    if (unsearchable !== null) {
      if (!skipped.some((entry) => entry.dir === dir))
        skipped.push({ dir, source, label, reason: unsearchable });
      return;
    }
    if (platform === "win32" && isWindowsStorePath(dir)) return;
    const key = dirKey(dir, platform);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ dir, source, label });
  };
  for (const dir of pathEntries(input.loginShellPath, platform))
    add(dir, "login-shell-path", "login-shell PATH");
  for (const dir of pathEntries(envGet(input.env, "PATH", platform), platform))
    add(dir, "process-path", "PATH");
  const known = platform === "win32" ? windowsKnownDirs(input) : posixKnownDirs(input);
  const ownKnown = own
    .filter((dir) => dir.source === "known-location")
    .map((dir): Entry => [dir.dir, dir.label]);
  for (const [dir, label] of [...known.first, ...ownKnown, ...known.rest])
    add(dir || null, "known-location", label);
  for (const dir of own) if (dir.source === "desktop-app") add(dir.dir || null, "desktop-app", dir.label);
  return { dirs: out, skipped };
}

type Entry = [dir: string | undefined | null, label: string];

/** Known install locations: `first` rank above a CLI's own dirs, `rest` below them. */
interface KnownDirs {
  first: Entry[];
  rest: Entry[];
}

function posixKnownDirs(input: CandidateDirsInput): KnownDirs {
  const p = pathApi(input.platform);
  const env = (name: string): string | undefined => envGet(input.env, name, input.platform);
  const home = input.homedir;
  const sys = (dir: string): string => (input.systemRoot ? p.join(input.systemRoot, dir) : dir);
  const xdgData = env("XDG_DATA_HOME") ?? p.join(home, ".local", "share");
  const darwin = input.platform === "darwin";
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
  return {
    first: [[p.join(home, ".local", "bin"), "~/.local/bin (standalone installer)"]],
    rest: [
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
    ],
  };
}

/** The Windows folders installs go under, from the environment, with Windows' defaults where a variable is unset. */
export interface WindowsFolders {
  /** A variable of the input's environment, its name matched as Windows does (any case). */
  env: (name: string) => string | undefined;
  /** `USERPROFILE`. */
  home: string;
  /** `APPDATA` (roaming). */
  appData: string;
  /** `LOCALAPPDATA`. */
  localAppData: string;
  /** `ProgramFiles`. */
  programFiles: string;
}

/** The Windows folders of `input` (see {@link WindowsFolders}). Pure. */
export function windowsFolders(input: CandidateDirsInput): WindowsFolders {
  const w = pathApi("win32");
  const env = (name: string): string | undefined => envGet(input.env, name, "win32");
  const home = env("USERPROFILE") ?? input.homedir;
  return {
    env,
    home,
    appData: env("APPDATA") ?? w.join(home, "AppData", "Roaming"),
    localAppData: env("LOCALAPPDATA") ?? w.join(home, "AppData", "Local"),
    programFiles: env("ProgramFiles") ?? "C:\\Program Files",
  };
}

function windowsKnownDirs(input: CandidateDirsInput): KnownDirs {
  const w = pathApi("win32");
  const { env, home, appData, localAppData, programFiles } = windowsFolders(input);
  return {
    first: [
      [w.join(appData, "npm"), "npm global"],
      [env("npm_config_prefix") ?? env("NPM_CONFIG_PREFIX"), "npm prefix (npm_config_prefix)"],
      [input.npmPrefix, "npm prefix (.npmrc)"],
    ],
    rest: [
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
    ],
  };
}
