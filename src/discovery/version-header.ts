/** How many bytes of a `#!` script are read for its shebang and its version header. */
export const SCRIPT_HEAD_BYTES = 512;

const RELEASE = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/;

/**
 * The version a script states on a line of `head` that starts with `prefix` (`// Version: 1.2.3`), or null when
 * no line does or what follows is no `MAJOR.MINOR.PATCH` release. Pure.
 */
export function statedVersion(head: string, prefix: string): string | null {
  for (const line of head.split(/\r?\n/)) {
    if (line.startsWith(prefix)) return releaseOrNull(line.slice(prefix.length));
  }
  return null;
}

/** `text` trimmed when it is a `MAJOR.MINOR.PATCH` release (with an optional suffix), else null. Pure. */
export function releaseOrNull(text: string): string | null {
  const trimmed = text.trim();
  return RELEASE.test(trimmed) ? trimmed : null;
}
