/**
 * How many cases a property runs and from which seed. `npm test` runs a few hundred; `npm run fuzz` sets
 * FUZZ_RUNS (default 5000). Replay a failure with the seed and path fast-check prints:
 * `FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run test/fuzz/<file>`.
 */
import type fc from "fast-check";

function envInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${raw}`);
  return value;
}

/** The seed of this test process: FUZZ_SEED, else a fresh one. Printed so that any run can be replayed. */
export const FUZZ_SEED: number = envInt("FUZZ_SEED") ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;

/**
 * How many cases a property runs: `defaultRuns`, or FUZZ_RUNS divided by `share` (a property whose cases are
 * expensive, such as one real child process each, takes a share of FUZZ_RUNS).
 */
export function fuzzRuns(defaultRuns: number, share = 1): number {
  const runs = envInt("FUZZ_RUNS");
  return runs === undefined ? defaultRuns : Math.max(1, Math.ceil(runs / share));
}

/** fast-check parameters for `numRuns` cases from {@link FUZZ_SEED} (and FUZZ_PATH, to replay one case). */
export function fuzzParameters<T>(numRuns: number): fc.Parameters<T> {
  const path = process.env.FUZZ_PATH;
  return { numRuns, seed: FUZZ_SEED, ...(path ? { path } : {}) };
}

/** A test timeout for `numRuns` cases of about `msPerRun` each, with time to shrink a failure. */
export function fuzzTimeout(numRuns: number, msPerRun: number): number {
  return 180_000 + numRuns * msPerRun;
}
