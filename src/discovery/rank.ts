import type { CandidateSource } from "./discovery-types.js";

/** How a found file is launched, as far as ranking cares. */
export type CandidateKind = "posix" | "windows-exe" | "windows-cmd";

/** The fields ranking looks at. */
export interface Rankable {
  source: CandidateSource;
  kind: CandidateKind;
  /** Position of the directory in the candidate-directory order (-1 for the override). */
  dirIndex: number;
  /** Position within the directory (expanded version dirs, then file names). */
  order: number;
}

/** Override first, then every user-installed CLI, then desktop-app bundles. */
const TIER: Record<CandidateSource, number> = {
  "env-override": 0,
  "login-shell-path": 1,
  "process-path": 1,
  "known-location": 1,
  "desktop-app": 2,
};

/** A native `.exe` beats a `.cmd` shim wherever it is; POSIX files rank equal here. */
const KIND: Record<CandidateKind, number> = { posix: 0, "windows-exe": 0, "windows-cmd": 1 };

/** Orders two candidates: tier, then kind, then directory order, then order within the directory. Pure. */
export function compareCandidates(a: Rankable, b: Rankable): number {
  return (
    TIER[a.source] - TIER[b.source] ||
    KIND[a.kind] - KIND[b.kind] ||
    a.dirIndex - b.dirIndex ||
    a.order - b.order
  );
}

/** The candidates, best first (a stable sort of a copy). Pure. */
export function rankCandidates<T extends Rankable>(candidates: readonly T[]): T[] {
  return [...candidates].sort(compareCandidates);
}
