import type { Launcher } from "../process/stdio-child.js";
import type { CandidateDirsInput, OwnDir } from "./candidate-dirs.js";
import type { ExecutableLaunch, LaunchNaming, LaunchOptions } from "./executable-launch.js";
import type { FileInfo, FoundFile, ScriptMarker } from "./locus-host.js";

/** Stats paths in the locus being searched: one {@link FileInfo} (or null when nothing is there) per path. */
export type Inspect = (paths: readonly string[]) => Promise<(FileInfo | null)[]>;

/**
 * Files that may stand in for a found one (e.g. the native `.exe` an npm `.cmd` shim calls): the first that is
 * a regular file becomes a candidate ranked just before the found file, labelled `<dir label>, <label>`.
 */
export interface CompanionLookup {
  paths: readonly string[];
  label: string;
}

/**
 * The file to start instead of a found one, with the variables to set (e.g. the native binary npm's launcher
 * script would start). Probed first, as launch mode `npm-native`; the found file stays the fallback.
 */
export interface PreferredLaunch {
  binary: FileInfo;
  env: Record<string, string>;
}

/** What a verify step gets to start the candidate. */
export interface VerifyContext {
  /** Pass to `launchSpec`: the locus's spawn environment and the probe's working directory. */
  launchOptions: LaunchOptions;
  /** Deadline of the step. */
  timeoutMs: number;
  /** Aborted when discovery is aborted or no longer needs this candidate: end the child and report `aborted`. */
  signal: AbortSignal;
  /** The launcher the caller gave (`DiscoverExecutableOptions.launcher`), or null for the step's own default. */
  launcher: Launcher | null;
}

/** One probe step's verdict. */
export type ProbeStepResult =
  { type: "pass"; ms: number } | { type: "fail"; reason: string; ms: number; aborted?: boolean };

/** What reports and the doctor tell a person about the program: how to get it, update it and diagnose it. */
export interface ProgramGuidance {
  /** How to install it (`npm i -g <package>, or <another way>`). */
  install: string;
  /** How to update an installed one. */
  upgrade: string;
  /** The command that reports every candidate (`<cli> doctor`). */
  doctorCommand: string;
  /** The arguments its sessions start it with, shown after the chosen command (`["serve"]`). */
  launchArgs: readonly string[];
}

/** A last probe that starts the candidate the way its sessions will (e.g. a protocol handshake). */
export interface VerifyStep<Verify extends string = string> {
  /** The probe's name in reports (`handshake`). */
  name: Verify;
  run(launch: ExecutableLaunch, context: VerifyContext): Promise<ProbeStepResult>;
}

/**
 * What a harness tells the neutral discovery engine about its CLI. Everything else (the login-shell PATH,
 * version-manager and install directories, Windows `.exe`/`.cmd` handling, node launchers, WSL, ranking, the
 * probe cache, the report) is the engine's. `Code` is the unsupported-version code, `Verify` the verify probe's
 * name.
 */
export interface ExecutableSpec<Code extends string = string, Verify extends string = string> {
  /** The executable's name in reasons (`no <name> executable found …`). */
  name: string;
  /** How launch errors name the program, and the option that gives a path explicitly (`--<name>-bin`). */
  naming: LaunchNaming;
  /** The variable whose path is probed first and wins when it passes (`RENNET_<NAME>_BIN`). */
  overrideVariable: string;
  /** The file names looked for in each directory, best first (`["<name>.exe", "<name>.cmd"]` on Windows). */
  fileNames(platform: NodeJS.Platform): readonly string[];
  /** The directories only this CLI installs into (standalone package, app bundles). */
  ownDirs(input: CandidateDirsInput): OwnDir[];
  /** Files that may stand in for a found one; see {@link CompanionLookup}. */
  companions?(file: FoundFile, platform: NodeJS.Platform, arch: string): CompanionLookup | null;
  /** A file to start instead of the found one; see {@link PreferredLaunch}. */
  preferredLaunch?(
    info: FileInfo,
    inspect: Inspect,
    platform: NodeJS.Platform,
    arch: string,
  ): Promise<PreferredLaunch | null>;
  /** The one kind of script whose text hosts read (for `preferredLaunch`); see {@link ScriptMarker}. */
  scriptMarker?: ScriptMarker;
  /**
   * A line prefix under which a `#!` script states its own version within its first bytes (`// Version: `): a
   * found script whose stated version is not supported is refused without being run, for releases whose version
   * arguments have side effects. A supported or missing statement changes nothing: the version arguments run.
   */
  versionHeader?: string;
  /** Arguments that make it print its version and exit (`["--version"]`). */
  versionArgs: readonly string[];
  /** The version in `--version` output (stdout, else stderr), or null. */
  parseVersion(output: string): string | null;
  /** Whether a version is one Rennet supports; an unsupported one fails without the verify step. */
  isSupportedVersion(version: string): boolean;
  /** The code and message of an unsupported version (the message names the version and the upgrade). */
  unsupportedVersion: { code: Code; message(version: string): string };
  /** The last probe, when version and support are not enough. */
  verify?: VerifyStep<Verify>;
  /**
   * Variables naming a directory the program resolves against its working directory when relative (its home):
   * its probes, which start in the repository, get them resolved against the process's current directory, so the
   * repository cannot supply that directory.
   */
  cwdRelativeVariables?: readonly string[];
  /** A part of every probe-cache key of this spec: a new tag makes every cached probe of it stale. */
  cacheTag: string;
  /** What reports say about getting and fixing it. */
  guidance: ProgramGuidance;
}
