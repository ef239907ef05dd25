import type { ExecutableLaunch } from "./executable-launch.js";
import type { Locus } from "./discovery-types.js";

/**
 * The one kind of script whose text discovery reads: a `#!` file whose real path ends in `realpathSuffix`
 * (e.g. npm's launcher script of a package, `/@scope/name/bin/name.js`) is read, and {@link FileInfo.scriptMarked} says whether it contains
 * `needle`. No other file's text is read.
 */
export interface ScriptMarker {
  /** A POSIX path suffix (`/`-separated) the script's real path ends with. */
  realpathSuffix: string;
  /** A literal string looked for in the script's text. */
  needle: string;
}

/** What discovery knows about one file, gathered without running it. */
export interface FileInfo {
  path: string;
  /** `file`, `directory`, a symlink whose target is missing, or anything else (socket, device, …). */
  kind: "file" | "directory" | "broken-link" | "other";
  /** The path with every symlink resolved (used for the cache key and duplicates, never for launching). */
  realpath: string;
  size: number;
  mtimeMs: number;
  /**
   * When the file's inode last changed (content, mode, links): a copy over it that keeps its size and mtime
   * (`cp -p`) still changes it. Seconds only inside WSL.
   */
  ctimeMs: number;
  ino: number;
  /** POSIX: an execute bit applies to us. Windows: an `.exe`/`.cmd` name. */
  executable: boolean;
  /** The first line when the file starts with `#!`, else null. */
  shebang: string | null;
  /** The file is the host's {@link ScriptMarker} script and its text contains the marker's needle. */
  scriptMarked: boolean;
  /**
   * The version a `#!` script states in its header line, read when the host was given a version-header prefix
   * (see `ExecutableSpec.versionHeader`); absent otherwise.
   */
  statedVersion?: string;
}

/** A file with one of the looked-for names, found in one expanded candidate directory. */
export interface FoundFile {
  /** Index of the directory pattern it came from. */
  patternIndex: number;
  dir: string;
  path: string;
  info: FileInfo;
}

/** A spawnable form of `argv` in a locus: `command prefixArgs…` plus variables for the native environment. */
export interface LocusCommand {
  command: string;
  prefixArgs: string[];
  env?: Record<string, string>;
}

/**
 * The place discovery looks and launches in: this machine (`native`) or one WSL distribution reached through
 * `wsl.exe`. Everything that touches the locus's files or processes goes through it.
 */
export interface LocusHost {
  readonly locus: Locus;
  /** Platform of the locus's files and processes (`linux` for WSL). */
  readonly platform: NodeJS.Platform;
  readonly homedir: string;
  /** The locus's own environment (inside WSL: HOME, SHELL and the non-login PATH of the distribution). */
  readonly env: NodeJS.ProcessEnv;
  /** The environment for the processes this host spawns (for WSL: the Windows side, for `wsl.exe`). */
  readonly spawnEnv: NodeJS.ProcessEnv;
  /** The user's login shell, or null when unknown. */
  readonly shell: string | null;
  /** npm's configured prefix from `~/.npmrc`, or null. */
  readonly npmPrefix: string | null;
  /** Inside WSL: the Windows user profile as a mount path (`/mnt/c/Users/bob`). */
  readonly windowsProfileMount: string | null;
  /** Expands each directory pattern (`*` segments, newest version first) and reports files with these names. */
  find(patterns: readonly string[], names: readonly string[]): Promise<FoundFile[]>;
  /** One {@link FileInfo} (or null when nothing is there) per path. */
  inspect(paths: readonly string[]): Promise<(FileInfo | null)[]>;
  /** How to spawn `argv` with extra variables in this locus. */
  command(argv: readonly string[], env?: Record<string, string>): LocusCommand;
  /** How to launch `[file]` or `[node, script]` with extra variables in this locus. */
  launch(argv: readonly [string] | readonly [string, string], env: Record<string, string>): ExecutableLaunch;
  /** The working directory for probe processes (native only; the project dir, so version-manager shims match). */
  readonly probeCwd: string | undefined;
}
