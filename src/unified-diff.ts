/**
 * Unified diffs of whole files (a file added or deleted) and of several files at once, for the `diff` of a
 * `FileChange` and of a file-change approval request. Pure.
 */

/** `content` as the lines of one hunk, each after `sign`; the count, and whether a newline ended it. */
function hunkLines(content: string, sign: "+" | "-"): { count: number; body: string } {
  const lines = content.split("\n");
  const endsWithNewline = lines.at(-1) === "";
  if (endsWithNewline) lines.pop();
  const body = lines.map((line) => `${sign}${line}\n`).join("");
  return { count: lines.length, body: `${body}${endsWithNewline ? "" : "\\ No newline at end of file\n"}` };
}

/** A new file's whole content as a unified diff against nothing (hunks only; "" for an empty file). */
export function unifiedDiffOfNewFile(content: string): string {
  if (content === "") return "";
  const { count, body } = hunkLines(content, "+");
  return `@@ -0,0 +1,${count} @@\n${body}`;
}

/** A deleted file's whole content as a unified diff to nothing (hunks only; "" for an empty file). */
export function unifiedDiffOfDeletedFile(content: string): string {
  if (content === "") return "";
  const { count, body } = hunkLines(content, "-");
  return `@@ -1,${count} +0,0 @@\n${body}`;
}

/**
 * The hunks-only diffs of several files as one unified diff: each file's after `---`/`+++` header lines naming
 * it (`/dev/null` for the side an added or deleted file lacks); a file without a diff is left out. Null when
 * none has one.
 */
export function unifiedDiffOfFiles(
  changes: readonly { path: string; kind: string; diff: string | null }[],
): string | null {
  const parts = changes.flatMap(({ path, kind, diff }) => {
    if (diff === null || diff === "") return [];
    const from = kind === "add" ? "/dev/null" : path;
    const to = kind === "delete" ? "/dev/null" : path;
    return [`--- ${from}\n+++ ${to}\n${diff.endsWith("\n") ? diff : `${diff}\n`}`];
  });
  return parts.length === 0 ? null : parts.join("");
}
