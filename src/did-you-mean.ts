/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. Pure. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = rows[i];
      if (row) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** A name without case or word separators: `bearer_token_env_var` and `bearerTokenEnvVar` are one spelling. */
function spelling(name: string): string {
  return name.replace(/[-_]/g, "").toLowerCase();
}

/**
 * The known name closest to a mistyped one (`rn` → `run`), or null when none is close: the name spelled the same
 * but for case and `_`/`-` (`max_tokens` → `maxTokens`, `URL` → `url`), else one where at most 40% of the longer
 * name's characters differ. Pure.
 */
export function didYouMean(typed: string, known: readonly string[]): string | null {
  const same = known.find((name) => spelling(name) === spelling(typed));
  if (same !== undefined) return same;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (
      distance < bestDistance &&
      distance <= Math.max(1, Math.floor(Math.max(typed.length, name.length) * 0.4))
    ) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}
