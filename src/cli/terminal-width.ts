/** Characters a terminal draws in no column: combining marks, the zero-width joiner, variation selectors. */
const ZERO_WIDTH = /^(?:\p{Mn}|\p{Me}|\u200d|[\ufe00-\ufe0f])$/u;

/**
 * Characters a terminal draws in two columns: emoji shown as emoji by default, and the East Asian wide and
 * fullwidth blocks (Hangul Jamo, CJK radicals to Yi, Hangul syllables, CJK compatibility, vertical and small
 * forms, fullwidth forms, the supplementary ideographic planes).
 */
const WIDE =
  /[\p{Emoji_Presentation}\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{16fe0}-\u{18aff}\u{1b000}-\u{1b2ff}\u{20000}-\u{3fffd}]/u;

/** The columns one character (a code point) takes on a terminal: 0, 1 or 2. Pure. */
function columnsOf(character: string): number {
  if (WIDE.test(character)) return 2;
  return ZERO_WIDTH.test(character) ? 0 : 1;
}

/**
 * `text` as it is when it takes at most `columns` terminal columns, else cut to fit them with `…` (one column)
 * at the end. Measured by code point (a surrogate pair is never split) with each character's width on a
 * terminal, so that a line of wide characters (CJK, emoji) does not wrap where its UTF-16 length would fit.
 * Pure.
 */
export function fitColumns(text: string, columns: number): string {
  let used = 0;
  let end = 0;
  let cutAt = -1;
  for (const character of text) {
    used += columnsOf(character);
    if (cutAt === -1 && used > columns - 1) cutAt = end;
    if (used > columns) return `${text.slice(0, cutAt)}…`;
    end += character.length;
  }
  return text;
}
