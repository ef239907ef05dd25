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

const C_ESCAPES = new Map([
  ["\u0007", "\\a"],
  ["\b", "\\b"],
  ["\t", "\\t"],
  ["\n", "\\n"],
  ["\v", "\\v"],
  ["\f", "\\f"],
  ["\r", "\\r"],
  ['"', '\\"'],
  ["\\", "\\\\"],
]);

/** What makes a diff header quote a file name: a control character or a double quote. */
// eslint-disable-next-line no-control-regex
const NEEDS_QUOTES = /[\u0000-\u001f\u007f"]/;
/** What a quoted file name escapes: the controls, the double quote and the backslash. */
// eslint-disable-next-line no-control-regex
const ESCAPED_IN_QUOTES = /[\u0000-\u001f\u007f"\\]/g;

/**
 * A path as a diff header names it: one with a control character or a double quote is put in double quotes
 * with C escapes, as git quotes it (octal for the controls without a letter, the backslash doubled), so that a
 * file name holding a newline cannot start a header line of its own; any other (a Windows path too) as it is.
 * Pure.
 */
function headerPath(path: string): string {
  if (!NEEDS_QUOTES.test(path)) return path;
  const escaped = path.replace(
    ESCAPED_IN_QUOTES,
    (char) => C_ESCAPES.get(char) ?? `\\${char.charCodeAt(0).toString(8).padStart(3, "0")}`,
  );
  return `"${escaped}"`;
}

/**
 * The hunks-only diffs of several files as one unified diff: each file's after `---`/`+++` header lines naming
 * it (`/dev/null` for the side an added or deleted file lacks; a name with a control character or a double
 * quote quoted as git quotes it); a file without a diff is left out. Null when none has one.
 */
export function unifiedDiffOfFiles(
  changes: readonly { path: string; kind: string; diff: string | null }[],
): string | null {
  const parts = changes.flatMap(({ path, kind, diff }) => {
    if (diff === null || diff === "") return [];
    const from = kind === "add" ? "/dev/null" : headerPath(path);
    const to = kind === "delete" ? "/dev/null" : headerPath(path);
    return [`--- ${from}\n+++ ${to}\n${diff.endsWith("\n") ? diff : `${diff}\n`}`];
  });
  return parts.length === 0 ? null : parts.join("");
}
