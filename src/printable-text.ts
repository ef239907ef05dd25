/**
 * Characters that must not reach a terminal raw on one line of outside text: C0/C1 controls and DEL, every
 * format character (bidi controls, zero-width and invisible marks such as the soft hyphen, the word joiner and
 * the tag characters), the line and paragraph separators, and lone surrogates.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/** Whether `text` holds a character that {@link printableText} escapes. Pure. */
export function hasUnprintable(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text);
}

/**
 * Text from an untrusted source (a repository file) made safe to print on one line: every control, format
 * (bidi, zero-width, invisible) or separator character and every lone surrogate becomes `\uXXXX` escapes, one
 * per UTF-16 unit (a newline `\n`, a tab `\t`), so that no two different texts look the same; text longer
 * than `max` characters is cut with `…`. Pure.
 */
export function printableText(text: string, max = 160): string {
  return cutText(
    text.replace(UNSAFE, (c) => (c === "\n" ? "\\n" : c === "\t" ? "\\t" : unicodeEscape(c))),
    max,
  );
}

/**
 * `text` cut to at most `max` UTF-16 units, the last of them `…`, when it is longer; a surrogate pair is never
 * split. Pure.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** What a terminal acts on or reorders text by, newline and tab excepted: C0/C1 controls, DEL, bidi controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Text from an untrusted source (a model's answer, a command's output) made safe to write to a terminal as it
 * is, lines kept: a CRLF becomes a newline, and every other control character but newline and tab, and every
 * bidi embedding, override or isolate, becomes a `\uXXXX` escape (a carriage return `\r`), so that it cannot
 * move the cursor, clear the screen, set the title or reorder what is shown. Text longer than `max` characters,
 * when given, is cut with `…`. Pure.
 */
export function terminalText(text: string, max?: number): string {
  const safe = text
    .replace(/\r\n/g, "\n")
    .replace(UNSAFE_IN_LINES, (c) => (c === "\r" ? "\\r" : unicodeEscape(c)));
  return max === undefined ? safe : cutText(safe, max);
}

/**
 * What `JSON.stringify` leaves raw that a terminal acts on or reorders text by: DEL, C1 controls, the line and
 * paragraph separators, bidi embeddings, overrides and isolates (it escapes the C0 controls itself).
 */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify`'s text made safe to write to a terminal: each character of `RAW_IN_JSON` becomes a `\uXXXX`
 * escape, so the text is the same JSON value and nothing in it can drive the terminal. Pure.
 */
export function terminalJson(json: string): string {
  return json.replace(RAW_IN_JSON, unicodeEscape);
}

/** `json` as it is written to stdout: through {@link terminalJson} when stdout is a `terminal`, else unchanged. Pure. */
export function printedJson(json: string, terminal: boolean): string {
  return terminal ? terminalJson(json) : json;
}

/** A character as `\uXXXX` escapes, one per UTF-16 unit (two for a character beyond the BMP, as in JSON). Pure. */
function unicodeEscape(c: string): string {
  let escaped = "";
  for (let index = 0; index < c.length; index++)
    escaped += `\\u${c.charCodeAt(index).toString(16).padStart(4, "0")}`;
  return escaped;
}
