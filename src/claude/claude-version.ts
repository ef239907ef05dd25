/**
 * Claude Code version strings: what `claude --version` prints (`2.1.332 (Claude Code)` from 1.0 to 2.1.332) and
 * what `system/init.claude_code_version` says. Pure.
 */

/** A release version; Claude Code publishes plain `MAJOR.MINOR.PATCH` releases. */
export type ClaudeVersion = readonly [major: number, minor: number, patch: number];

/**
 * Reads the first `MAJOR.MINOR.PATCH` in `text` (`2.1.332 (Claude Code)`, `v2.0.77`, `2.1.332`); a prerelease or
 * build suffix is ignored. Null when the text holds no version (or a part is not a safe integer).
 */
export function parseClaudeVersion(text: string): ClaudeVersion | null {
  const match = /(?:^|[^\d.])(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?!\d|\.\d)/.exec(` ${text}`);
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Whether `--version` output names Claude Code (every release from 1.0 prints `<version> (Claude Code)`). */
export function looksLikeClaudeVersionOutput(text: string): boolean {
  return parseClaudeVersion(text) !== null && /\(Claude Code\)/.test(text);
}

/** Negative when `a` < `b`, 0 when equal, positive when `a` > `b`. */
export function compareClaudeVersions(a: ClaudeVersion, b: ClaudeVersion): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** `2.1.332`. */
export function formatClaudeVersion(version: ClaudeVersion): string {
  return version.join(".");
}
