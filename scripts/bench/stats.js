// Pure summary statistics for the benchmark (milliseconds in, milliseconds out).

/** The q-quantile (0..1) of `values` by linear interpolation between closest ranks; NaN for an empty list. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

/** n, median, p95, min and max of `samples`. */
export function summarize(samples) {
  return {
    n: samples.length,
    median: quantile(samples, 0.5),
    p95: quantile(samples, 0.95),
    min: samples.length ? Math.min(...samples) : Number.NaN,
    max: samples.length ? Math.max(...samples) : Number.NaN,
  };
}

/** `value / baseline`, or null when either is not a positive finite number. */
export function ratio(value, baseline) {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline <= 0) return null;
  return value / baseline;
}
