/**
 * Default cap on how deeply one frame may nest objects and arrays. Generous for any real agent frame, and far
 * below the depth at which recursive consumers of a frame (`JSON.stringify`, `util.inspect`, a renderer) run
 * out of stack.
 */
export const DEFAULT_MAX_NESTING_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the JSON text opens more than `maxDepth` objects or arrays inside each other. Brackets inside
 * strings do not count. Pure and linear; it does not validate the JSON (the parser does that).
 */
export function exceedsNestingDepth(text: string, maxDepth: number): boolean {
  // every level takes at least one character: a line this short cannot nest deeper
  if (text.length <= maxDepth) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = closingQuote(text, i);
      if (close === -1) return false; // an unterminated string: not JSON, the parser says so
      i = close;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    let backslashes = 0;
    for (let k = quote - 1; k > open && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
