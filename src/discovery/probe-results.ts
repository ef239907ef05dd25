import type { Candidate } from "./candidates.js";
import type { LaunchMode } from "./discovery-types.js";
import type { CandidateReport, ProbeName, ProbeOutcome } from "./discovery-report.js";
import type { ResolvedExecutable } from "./executable-launch.js";
import type { ExecutableSpec } from "./executable-spec.js";

/** A probed candidate: its report (without rank/chosen) and, when it passed, how to launch it. */
export interface ProbedCandidate {
  report: Omit<CandidateReport, "rank" | "chosen">;
  resolved: ResolvedExecutable | null;
  /** The probe was stopped by the signal; its result says nothing about the candidate. */
  aborted: boolean;
}

/** The fields of a candidate's report that do not depend on probing. */
export type ReportBase = Pick<CandidateReport, "source" | "label" | "path">;

/** What a passing version probe found. */
export interface FoundVersion {
  version: string;
  mode: LaunchMode;
}

export function reportBase(candidate: Candidate): ReportBase {
  return { source: candidate.source, label: candidate.label, path: candidate.path };
}

export function skippedProbe(probe: ProbeName): ProbeOutcome {
  return { probe, result: "skipped", ms: 0, reason: "an earlier probe failed" };
}

/** A candidate that failed `probes`; `found` keeps what the version probe learned before a later step failed. */
export function failedResult(
  base: ReportBase,
  probes: ProbeOutcome[],
  reason: string,
  found?: FoundVersion,
): ProbedCandidate {
  return {
    report: {
      ...base,
      outcome: "failed",
      version: found?.version ?? null,
      launch: found?.mode ?? null,
      cached: false,
      probes,
      reason,
    },
    resolved: null,
    aborted: false,
  };
}

/**
 * A candidate older than the oldest supported version, with the spec's unsupported-version code. `version` is
 * the version probe's outcome when it ran (then the verify step refuses the candidate without running, or the
 * version probe does for a spec without one), or null when the file stated its version and nothing ran (the
 * version probe refuses it, the verify step is skipped).
 */
export function unsupportedResult(
  base: ReportBase,
  executable: ProbeOutcome,
  version: ProbeOutcome | null,
  found: FoundVersion,
  spec: Pick<ExecutableSpec, "unsupportedVersion" | "verify">,
): ProbedCandidate {
  const reason = spec.unsupportedVersion.message(found.version);
  const refused: ProbeOutcome[] =
    version === null
      ? [
          executable,
          { probe: "version", result: "fail", ms: 0, reason: `${reason} (stated in the file; not run)` },
          ...(spec.verify ? [skippedProbe(spec.verify.name)] : []),
        ]
      : spec.verify
        ? [executable, version, { probe: spec.verify.name, result: "fail", ms: 0, reason }]
        : [executable, { ...version, result: "fail", reason }];
  const step = version === null ? "version" : (spec.verify?.name ?? "version");
  const result = failedResult(base, refused, `${step}: ${reason}`, found);
  return { ...result, report: { ...result.report, code: spec.unsupportedVersion.code } };
}

export function passedResult(
  base: ReportBase,
  found: FoundVersion & { probes: ProbeOutcome[]; cached: boolean },
  resolved: ResolvedExecutable,
): ProbedCandidate {
  return {
    report: {
      ...base,
      outcome: "passed",
      version: found.version,
      launch: found.mode,
      cached: found.cached,
      probes: found.probes,
    },
    resolved,
    aborted: false,
  };
}

export function abortedResult(base: ReportBase): ProbedCandidate {
  return { ...notProbed(base, "stopped"), aborted: true };
}

/** A candidate left alone: a better-ranked one passed, or it is the same file as `duplicateOf`. */
export function notProbedResult(candidate: Candidate, reason: string, duplicateOf?: string): ProbedCandidate {
  const result = notProbed(reportBase(candidate), reason);
  return duplicateOf === undefined ? result : { ...result, report: { ...result.report, duplicateOf } };
}

function notProbed(base: ReportBase, reason: string): ProbedCandidate {
  return {
    report: {
      ...base,
      outcome: "not-probed",
      version: null,
      launch: null,
      cached: false,
      probes: [],
      reason,
    },
    resolved: null,
    aborted: false,
  };
}
