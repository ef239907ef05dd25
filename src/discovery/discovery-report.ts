import type { ResolvedExecutable } from "./executable-launch.js";
import type { CandidateSource, CodexLocus, LaunchMode } from "./discovery-types.js";

/** The three probes, in the order they run. */
export type ProbeName = "executable" | "version" | "handshake";

/** One probe's verdict for one candidate. */
export interface ProbeOutcome {
  probe: ProbeName;
  result: "pass" | "fail" | "skipped";
  /** How long it took (for a cached candidate: when it was measured). */
  ms: number;
  /** Why it failed or was skipped; for a pass, a note (e.g. that the sibling node was needed). */
  reason?: string;
}

/** Everything discovery learned about one candidate. JSON-serializable. */
export interface CandidateReport {
  /** 1-based position in the ranking (1 = preferred). */
  rank: number;
  source: CandidateSource;
  /** What the directory is ("nvm node versions", "Homebrew", "RENNET_CODEX_BIN", …). */
  label: string;
  path: string;
  /** `not-probed`: discovery stopped once a better-ranked candidate passed, or it duplicates another one. */
  outcome: "passed" | "failed" | "not-probed";
  chosen: boolean;
  version: string | null;
  launch: LaunchMode | null;
  /** The result came from the probe cache (file unchanged since it was probed). */
  cached: boolean;
  probes: ProbeOutcome[];
  /** For `failed` and `not-probed`: one line saying why. */
  reason?: string;
  /** Set when the candidate failed because its version is older than the oldest Rennet supports. */
  code?: "CODEX_UNSUPPORTED_VERSION";
  /** Same file (resolved) as this better-ranked candidate. */
  duplicateOf?: string;
}

/** How the login-shell PATH was obtained. */
export type LoginShellReport =
  | { type: "ok"; shell: string; flags: string; entries: number; ms: number; cached: boolean }
  | { type: "failed"; shell: string; reason: string; ms: number; cached: boolean }
  | { type: "skipped"; reason: string };

/** The result of {@link discoverCodex}. JSON-serializable (for `rennet codex doctor --json`). */
export interface DiscoveryReport {
  available: boolean;
  chosen: ResolvedExecutable | null;
  /** Every candidate, best-ranked first. */
  candidates: CandidateReport[];
  /** Why Codex is unavailable (absent when available). */
  reason?: string;
  /**
   * `CODEX_UNSUPPORTED_VERSION` when Codex is unavailable and a candidate was found but is too old (the reason
   * then says which version and how to upgrade); absent otherwise.
   */
  code?: "CODEX_UNSUPPORTED_VERSION";
  elapsedMs: number;
  locus: CodexLocus;
  /** The platform of the locus (`linux` inside WSL). */
  platform: NodeJS.Platform;
  loginShell: LoginShellReport;
  /** The probe cache file, or null when caching was off or unusable. */
  cacheFile: string | null;
}
