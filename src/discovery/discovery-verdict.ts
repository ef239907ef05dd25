import type { Candidate } from "./candidates.js";
import type {
  CandidateReport,
  DiscoveryReport,
  LoginShellReport,
  ProgramFacts,
  SkippedDirReport,
} from "./discovery-report.js";
import type { Locus } from "./discovery-types.js";
import type { ExecutableSpec } from "./executable-spec.js";
import type { ProbedCandidate } from "./probe-results.js";

/** One candidate and its probes, in report order. */
export interface ProbedEntry {
  candidate: Candidate;
  result: ProbedCandidate;
}

/** What the report says besides the candidates. */
export interface ReportFrame {
  elapsedMs: number;
  locus: Locus;
  platform: NodeJS.Platform;
  loginShell: LoginShellReport;
  cacheFile: string | null;
  /** How many directories were searched (for the reason when nothing was found). */
  dirCount: number;
  /** Directories left out because they are not absolute. */
  skippedDirs: readonly SkippedDirReport[];
}

/**
 * The report: every entry ranked in order, the first that passed chosen; when none passed, the reason (the spec's
 * unsupported-version message when a candidate was too old, else what was searched and the best-ranked failure).
 * Pure.
 */
export function buildReport(
  spec: ExecutableSpec,
  entries: readonly ProbedEntry[],
  frame: ReportFrame,
): DiscoveryReport {
  const chosenIndex = entries.findIndex((entry) => entry.result.resolved !== null);
  const candidates: CandidateReport[] = entries.map((entry, index) => ({
    rank: index + 1,
    ...entry.result.report,
    chosen: index === chosenIndex,
  }));
  const { dirCount, skippedDirs, ...rest } = frame;
  const report: DiscoveryReport = {
    program: programFacts(spec),
    available: chosenIndex >= 0,
    chosen: entries[chosenIndex]?.result.resolved ?? null,
    candidates,
    ...rest,
    ...(skippedDirs.length > 0 ? { skippedDirs: skippedDirs.map((dir) => ({ ...dir })) } : {}),
  };
  if (chosenIndex >= 0) return report;
  const tooOld = candidates.find((candidate) => candidate.code === spec.unsupportedVersion.code);
  if (tooOld?.version) {
    report.code = spec.unsupportedVersion.code;
    report.reason = `${spec.unsupportedVersion.message(tooOld.version)} (${tooOld.path})`;
  } else {
    report.reason =
      unavailableReason(spec, candidates, dirCount, frame.locus) + skippedNote(skippedDirs.length);
  }
  return report;
}

/** A report of a discovery that ended before any candidate was looked for (e.g. WSL unreachable). Pure. */
export function unavailableReport(
  spec: ExecutableSpec,
  reason: string,
  frame: Pick<ReportFrame, "elapsedMs" | "locus" | "platform">,
): DiscoveryReport {
  return {
    program: programFacts(spec),
    available: false,
    chosen: null,
    candidates: [],
    reason,
    ...frame,
    loginShell: { type: "skipped", reason: "discovery stopped before the login shell" },
    cacheFile: null,
  };
}

/** What a report says about the program a spec describes. Pure. */
export function programFacts(spec: ExecutableSpec): ProgramFacts {
  const { guidance } = spec;
  return {
    name: spec.naming.name,
    executable: spec.name,
    overrideVariable: spec.overrideVariable,
    install: guidance.install,
    upgrade: guidance.upgrade,
    doctorCommand: guidance.doctorCommand,
    launchArgs: [...guidance.launchArgs],
  };
}

/** The label of the one candidate an explicit path makes (the spec's explicit flag, e.g. `--<name>-bin`). */
export function explicitLabel(spec: Pick<ExecutableSpec, "naming">): string {
  return spec.naming.explicitFlag ?? "explicit path";
}

/** The reason's note on directories not searched, empty when none was skipped. */
function skippedNote(count: number): string {
  if (count === 0) return "";
  return `; skipped ${count} ${count === 1 ? "directory that is" : "directories that are"} not an absolute path`;
}

function unavailableReason(
  spec: ExecutableSpec,
  candidates: readonly CandidateReport[],
  dirCount: number,
  locus: Locus,
): string {
  const where = locus.type === "wsl" ? ` in WSL distribution "${locus.distro}"` : "";
  const only = candidates.length === 1 ? candidates[0] : undefined;
  if (only?.label === explicitLabel(spec)) return `${only.label} ${only.path}: ${only.reason ?? "failed"}`;
  if (candidates.length === 0) {
    return `no ${spec.name} executable found${where} in ${dirCount} directories (login-shell PATH, PATH, known install locations)`;
  }
  const best = candidates.find((candidate) => candidate.outcome === "failed");
  const summary = best ? `; best-ranked: ${best.path}: ${best.reason ?? "failed"}` : "";
  return `none of ${candidates.length} candidate${candidates.length === 1 ? "" : "s"}${where} passed every probe${summary}`;
}
