import type { ResolvedExecutable } from "./executable-launch.js";
import type { CandidateSource, LaunchMode, Locus } from "./discovery-types.js";

/**
 * The probes, in the order they run: `executable` (a stat), `version` (the spec's version arguments) and the
 * spec's own verify step, when it has one (named by the spec).
 */
export type ProbeName<Verify extends string = string> = "executable" | "version" | Verify;

/** One probe's verdict for one candidate. */
export interface ProbeOutcome<Verify extends string = string> {
  probe: ProbeName<Verify>;
  result: "pass" | "fail" | "skipped";
  /** How long it took (for a cached candidate: when it was measured). */
  ms: number;
  /** Why it failed or was skipped; for a pass, a note (e.g. that the sibling node was needed). */
  reason?: string;
}

/** Everything discovery learned about one candidate. JSON-serializable. */
export interface CandidateReport<Code extends string = string, Verify extends string = string> {
  /** 1-based position in the ranking (1 = preferred). */
  rank: number;
  source: CandidateSource;
  /** What the directory is ("nvm node versions", "Homebrew", the override variable, …). */
  label: string;
  path: string;
  /** `not-probed`: discovery stopped once a better-ranked candidate passed, or it duplicates another one. */
  outcome: "passed" | "failed" | "not-probed";
  chosen: boolean;
  version: string | null;
  launch: LaunchMode | null;
  /** The result came from the probe cache (file unchanged since it was probed). */
  cached: boolean;
  probes: ProbeOutcome<Verify>[];
  /** For `failed` and `not-probed`: one line saying why. */
  reason?: string;
  /** The spec's unsupported-version code, set when the candidate's version is older than the oldest supported. */
  code?: Code;
  /** Same file (resolved) as this better-ranked candidate. */
  duplicateOf?: string;
}

/** How the login-shell PATH was obtained. */
export type LoginShellReport =
  | { type: "ok"; shell: string; flags: string; entries: number; ms: number; cached: boolean }
  | { type: "failed"; shell: string; reason: string; ms: number; cached: boolean }
  | { type: "skipped"; reason: string };

/** The program a discovery looked for, and what a person can do about it (from its spec). JSON-serializable. */
export interface ProgramFacts {
  /** How people call it (`Tool`). */
  name: string;
  /** The executable's file name (`tool`). */
  executable: string;
  /** The variable whose path is probed first (`RENNET_TOOL_BIN`). */
  overrideVariable: string;
  /** How to install it. */
  install: string;
  /** How to update an installed one. */
  upgrade: string;
  /** The command that reports every candidate. */
  doctorCommand: string;
  /** The arguments its sessions start it with. */
  launchArgs: string[];
}

/**
 * The result of one discovery: `Code` is the spec's unsupported-version code, `Verify` the name of its verify
 * probe. JSON-serializable (for a doctor's `--json`).
 */
export interface DiscoveryReport<Code extends string = string, Verify extends string = string> {
  /** What was looked for. */
  program: ProgramFacts;
  available: boolean;
  chosen: ResolvedExecutable | null;
  /** Every candidate, best-ranked first. */
  candidates: CandidateReport<Code, Verify>[];
  /** Why the executable is unavailable (absent when available). */
  reason?: string;
  /**
   * The spec's unsupported-version code when nothing is available and a candidate was found but is too old (the
   * reason then says which version and how to upgrade); absent otherwise.
   */
  code?: Code;
  elapsedMs: number;
  locus: Locus;
  /** The platform of the locus (`linux` inside WSL). */
  platform: NodeJS.Platform;
  loginShell: LoginShellReport;
  /** The probe cache file, or null when caching was off or unusable. */
  cacheFile: string | null;
  /**
   * Directories never searched because they are not absolute paths (a relative or empty PATH entry, a known
   * location built from a relative variable): they would resolve against the repository the probes and the
   * session start in. Absent when none was skipped.
   */
  skippedDirs?: SkippedDirReport[];
}

/** One directory discovery did not search, and why. */
export interface SkippedDirReport {
  /** The entry as given. */
  dir: string;
  source: CandidateSource;
  /** What the directory is (`PATH`, `login-shell PATH`, a known location's name). */
  label: string;
  reason: string;
}
