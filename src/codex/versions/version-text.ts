/**
 * Where Codex states its version: the text `codex --version` prints and the `userAgent` its `initialize` answer
 * carries. Both parsers are pure.
 */

/** Reads the version from `codex --version` output (`codex-cli 0.171.0` → `0.171.0`). Pure. */
export function parseCodexVersion(output: string): string | null {
  const named = /\bcodex(?:[-_ ]?cli)?\s+v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*[0-9A-Za-z])?)/i.exec(output);
  if (named?.[1]) return named[1];
  const bare = /(?:^|\s)v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]*[0-9A-Za-z])?)(?:\s|$)/.exec(output);
  return bare?.[1] ?? null;
}

/** `codex_cli_rs/0.171.0 (…)` → `0.171.0`. Pure. */
export function versionFromUserAgent(userAgent: unknown): string | null {
  if (typeof userAgent !== "string") return null;
  const match = /\/(\d+\.\d+\.\d+[^\s(]*)/.exec(userAgent);
  return match?.[1] ?? null;
}
