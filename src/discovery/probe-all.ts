import type { Candidate } from "./candidates.js";
import { probeCandidate, type ProbeContext } from "./probe-candidate.js";
import { notProbedResult, type ProbedCandidate } from "./probe-results.js";

/** Candidates probed at the same time (best-ranked first). */
const PROBE_CONCURRENCY = 4;

export interface ProbeAllOptions {
  /** `first-passing`: stop worse-ranked probes once the best passing candidate is certain; `all`: probe all. */
  mode: "first-passing" | "all";
  signal: AbortSignal | undefined;
}

/**
 * Probes ranked candidates in parallel (bounded), stopping worse-ranked ones once the winner is certain. A
 * binary found twice (same real path, no `#!` line) is probed once; the second is `not-probed`, `duplicateOf`
 * the first. Results are in the order of `ranked`.
 */
export async function probeAll(
  ranked: readonly Candidate[],
  context: Omit<ProbeContext, "signal">,
  options: ProbeAllOptions,
): Promise<ProbedCandidate[]> {
  const controllers = ranked.map(() => new AbortController());
  const abortAll = (): void => controllers.forEach((controller) => controller.abort());
  options.signal?.addEventListener("abort", abortAll, { once: true });
  const results: (ProbedCandidate | undefined)[] = new Array(ranked.length);
  const duplicates = findDuplicates(ranked);
  const stopLosers = winnerSettler(results, controllers, duplicates, options.mode);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < ranked.length; index = next++) {
      const candidate = ranked[index] as Candidate;
      const controller = controllers[index] as AbortController;
      const duplicateOf = duplicates.get(index);
      if (duplicateOf !== undefined) {
        results[index] = notProbedResult(candidate, `same file as ${duplicateOf}`, duplicateOf);
      } else if (controller.signal.aborted) {
        results[index] = notProbedResult(candidate, "not needed: a better-ranked candidate passed");
      } else {
        const result = await probeCandidate(candidate, { ...context, signal: controller.signal });
        results[index] = result.aborted
          ? notProbedResult(candidate, "stopped: a better-ranked candidate passed")
          : result;
      }
      stopLosers();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PROBE_CONCURRENCY, ranked.length) }, worker));
  } finally {
    options.signal?.removeEventListener("abort", abortAll);
  }
  return results as ProbedCandidate[];
}

/** Index → path of the better-ranked candidate with the same real path (binaries only: scripts depend on where they were found). */
function findDuplicates(ranked: readonly Candidate[]): Map<number, string> {
  const duplicates = new Map<number, string>();
  const seenRealpaths = new Map<string, string>();
  ranked.forEach((candidate, index) => {
    const info = candidate.info;
    if (!info || info.kind !== "file" || info.shebang !== null) return;
    const first = seenRealpaths.get(info.realpath);
    if (first !== undefined) duplicates.set(index, first);
    else seenRealpaths.set(info.realpath, candidate.path);
  });
  return duplicates;
}

/**
 * In `first-passing` mode: once every better-ranked candidate is settled and one passed, stops every
 * worse-ranked probe that has not finished.
 */
function winnerSettler(
  results: readonly (ProbedCandidate | undefined)[],
  controllers: readonly AbortController[],
  duplicates: ReadonlyMap<number, string>,
  mode: ProbeAllOptions["mode"],
): () => void {
  const stopped = new Set<number>();
  return () => {
    if (mode !== "first-passing") return;
    let winner = -1;
    for (let i = 0; i < results.length; i++) {
      if (duplicates.has(i)) continue;
      const result = results[i];
      if (result === undefined) return; // a better-ranked candidate is still being probed
      if (result.resolved) {
        winner = i;
        break;
      }
    }
    if (winner < 0) return;
    for (let i = winner + 1; i < results.length; i++) {
      if (results[i] === undefined && !stopped.has(i)) {
        stopped.add(i);
        controllers[i]?.abort();
      }
    }
  };
}
