/** Bytes a chunk holds unless one piece needs more. */
export const DEFAULT_CHUNK_BYTES = 64 * 1024;

/** Strings at most this long are copied by a loop while they are ASCII; longer ones go through `Buffer#write`. */
export const SHORT_STRING = 64;
/** Byte arrays at most this long are copied by a loop (a `set` call costs more than copying a few bytes). */
const SHORT_BYTES = 16;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Output text built as UTF-8 bytes in place, in chunks of {@link DEFAULT_CHUNK_BYTES}: pieces are copied in as
 * they come (pre-encoded bytes, strings, non-negative integers), so no string of the whole output is ever made
 * and encoded again. A writer first calls {@link reserve} with an upper bound of what it is about to write, then
 * writes: what is written after one `reserve` stays in one chunk, so a line reserved whole is never split
 * between two buffers. `take` hands out what was written and never touches those bytes again.
 */
export class Utf8Chunks {
  readonly #chunkBytes: number;
  #chunk: Buffer;
  #used = 0;
  /** Filled chunks not yet taken, oldest first. */
  #sealed: Buffer[] = [];
  #sealedBytes = 0;

  constructor(chunkBytes: number = DEFAULT_CHUNK_BYTES) {
    this.#chunkBytes = chunkBytes;
    this.#chunk = Buffer.allocUnsafeSlow(chunkBytes);
  }

  /** Bytes written and not yet taken. */
  get length(): number {
    return this.#sealedBytes + this.#used;
  }

  /** Makes room for at least `bytes` more in the current chunk (a new chunk when it has not that much left). */
  reserve(bytes: number): void {
    if (this.#used + bytes <= this.#chunk.length) return;
    if (this.#used > 0) {
      this.#sealed.push(this.#chunk.subarray(0, this.#used));
      this.#sealedBytes += this.#used;
    }
    this.#chunk = Buffer.allocUnsafeSlow(Math.max(this.#chunkBytes, bytes));
    this.#used = 0;
  }

  /** Copies bytes in. Needs `bytes.length` reserved. */
  bytes(bytes: Uint8Array): void {
    if (bytes.length > SHORT_BYTES) {
      this.#chunk.set(bytes, this.#used);
      this.#used += bytes.length;
      return;
    }
    const chunk = this.#chunk;
    let at = this.#used;
    for (let index = 0; index < bytes.length; index++) chunk[at++] = bytes[index] as number;
    this.#used = at;
  }

  /** Writes one byte (an ASCII character code). Needs 1 reserved. */
  byte(code: number): void {
    this.#chunk[this.#used++] = code;
  }

  /** Writes `text` as UTF-8. Needs {@link utf8Bound}`(text)` reserved. */
  string(text: string): void {
    const chunk = this.#chunk;
    const at = this.#used;
    if (text.length <= SHORT_STRING) {
      let index = 0;
      for (; index < text.length; index++) {
        const code = text.charCodeAt(index);
        if (code >= 0x80) break;
        chunk[at + index] = code;
      }
      if (index === text.length) {
        this.#used = at + index;
        return;
      }
    }
    this.#used = at + chunk.write(text, at, "utf8");
  }

  /**
   * Writes `text` as a JSON string literal (the text `JSON.stringify(text)` gives) when that is `text` in quotes:
   * at most {@link SHORT_STRING} printable ASCII characters without `"` or `\`. Returns false for any other text,
   * and the output is as it was. Needs `text.length + 2` reserved.
   */
  plainJsonString(text: string): boolean {
    if (text.length > SHORT_STRING) return false;
    const chunk = this.#chunk;
    const at = this.#used;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code < 0x20 || code > 0x7e || code === QUOTE || code === BACKSLASH) return false;
      chunk[at + 1 + index] = code;
    }
    chunk[at] = QUOTE;
    chunk[at + 1 + text.length] = QUOTE;
    this.#used = at + text.length + 2;
    return true;
  }

  /** Writes a non-negative integer in decimal. Needs 16 reserved (every safe integer fits). */
  uint(value: number): void {
    const chunk = this.#chunk;
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    let rest = value;
    for (let index = this.#used + digits - 1; index >= this.#used; index--) {
      chunk[index] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.#used += digits;
  }

  /** The bytes written so far, oldest first (none when nothing was written); the next write starts afresh. */
  take(): Buffer[] {
    if (this.length === 0) return [];
    const taken = this.#sealed;
    if (this.#used > 0) taken.push(this.#chunk.subarray(0, this.#used));
    // the taken bytes belong to the caller now (a stream may still hold them): the rest of the chunk is used on
    this.#chunk = this.#chunk.subarray(this.#used);
    if (this.#chunk.length < 1024) this.#chunk = Buffer.allocUnsafeSlow(this.#chunkBytes);
    this.#used = 0;
    this.#sealed = [];
    this.#sealedBytes = 0;
    return taken;
  }
}

/** Strings longer than this are measured exactly by {@link utf8Bound} rather than bounded. */
const MEASURED_STRING = 4096;

/**
 * At least the bytes `text` takes as UTF-8: three per UTF-16 unit for a short string (no scan), the exact count
 * for a long one (a line of megabytes must not reserve three times its size).
 */
export function utf8Bound(text: string): number {
  return text.length <= MEASURED_STRING ? text.length * 3 : Buffer.byteLength(text, "utf8");
}
