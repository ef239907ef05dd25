// How a measurement becomes a reported figure: interleaved sampling (A B A B …) and the figure record that the
// table and the JSON output show. Pure except `interleave`, which runs what it is given.
import { quantile, summarize } from "./stats.js";

/**
 * Runs `rounds` rounds of every variant in `variants` (`{name: async () => sample}`), in the given order within
 * each round, after one unmeasured warm-up run of each. Returns `{name: samples[]}`.
 */
export async function interleave(rounds, variants, progress = () => {}) {
  const names = Object.keys(variants);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) await variants[name]();
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      samples[name].push(await variants[name]());
      progress();
    }
  }
  return samples;
}

/**
 * A goal: `{compare: "ratio" | "delta" | "absolute", max}`. `ratio` is value/baseline, `delta` is
 * value − baseline, `absolute` is the value itself; the figure meets the goal when that number is ≤ max.
 */
export function goal(compare, max) {
  return { compare, max };
}

/**
 * One reported figure. `samples`/`baselineSamples` are numbers in `unit` ("ms", "MiB", "MB", "count");
 * the figure's value is their median. `baselineSamples` may be omitted (absolute figures); `goal` may be null
 * (figures reported for information). `notes` is free text; `extra` lands in the JSON only.
 */
export function figure({
  key,
  label,
  unit,
  samples,
  baselineLabel = null,
  baselineSamples = null,
  goal = null,
  notes = null,
  extra = {},
}) {
  const value = quantile(samples, 0.5);
  const baseline = baselineSamples ? quantile(baselineSamples, 0.5) : null;
  const ratio = baseline !== null && baseline > 0 ? value / baseline : null;
  const delta = baseline !== null ? value - baseline : null;
  const compared =
    goal === null ? null : goal.compare === "ratio" ? ratio : goal.compare === "delta" ? delta : value;
  return {
    key,
    label,
    unit,
    value,
    baselineLabel,
    baseline,
    ratio,
    delta,
    goal,
    met: compared === null || !Number.isFinite(compared) ? null : compared <= goal.max,
    notes,
    stats: summarize(samples),
    baselineStats: baselineSamples ? summarize(baselineSamples) : null,
    samples,
    baselineSamples,
    ...extra,
  };
}

/** A figure that could not be measured: it is reported with the reason and counts as not met. */
export function failedFigure(key, label, error, goalOfFigure = null) {
  return {
    key,
    label,
    unit: null,
    value: null,
    baseline: null,
    ratio: null,
    delta: null,
    goal: goalOfFigure,
    met: false,
    error: error instanceof Error ? error.message : String(error),
  };
}
