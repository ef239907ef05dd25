import { StringDecoder } from "node:string_decoder";

const CR = 0x0d;
/** A frame's first character: such a line is not blank, whatever follows. */
const OPEN_BRACE = 0x7b;

/** Default cap on one line: 16 MiB of UTF-8. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** One result of feeding bytes to a {@link LineDecoder}. */
export type DecodedLine = { type: "line"; text: string } | { type: "overflow"; bytes: number; head: string };

/**
 * Splits a byte stream into text lines. Pure and synchronous: no I/O, no timers.
 *
 * Chunks may split anywhere, including inside a multi-byte UTF-8 character. `\n` ends a line and a `\r`
 * before it is dropped; blank lines are skipped. A line longer than `maxLineBytes` yields one `overflow`
 * result (with the start of the line) and the rest of that line is discarded without being buffered.
 */
export class LineDecoder {
  readonly #maxLineBytes: number;
  #decoder = new StringDecoder("utf8");
  #parts: string[] = [];
  #bytes = 0;
  #overflowing = false;
  #overflowHead = "";
  #overflowBytes = 0;

  constructor(maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Feeds one chunk and returns every line it completed. */
  push(chunk: Uint8Array): DecodedLine[] {
    const out: DecodedLine[] = [];
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    // a line begun in an earlier chunk is finished first, in parts
    if (this.#bytes > 0 || this.#overflowing) {
      const nl = bytes.indexOf(0x0a);
      if (nl === -1) {
        this.#append(bytes);
        return out;
      }
      this.#append(bytes.subarray(0, nl));
      this.#finishLine(out);
      start = nl + 1;
    }
    // the complete lines after it, when none can exceed the cap: one decode for all of them (a line feed byte
    // is never inside a multi-byte character, so the lines are the same as decoded one by one)
    const last = bytes.lastIndexOf(0x0a);
    if (last >= start && last - start <= this.#maxLineBytes) {
      const text = bytes.toString("utf8", start, last);
      for (let from = 0; ;) {
        const nl = text.indexOf("\n", from);
        this.#emit(out, nl === -1 ? text.slice(from) : text.slice(from, nl));
        if (nl === -1) break;
        from = nl + 1;
      }
      start = last + 1;
    }
    while (start < bytes.length) {
      const nl = bytes.indexOf(0x0a, start);
      if (nl === -1) {
        this.#append(bytes.subarray(start));
        break;
      }
      // no line is carried over here (the first one was finished above, every other is finished in turn)
      if (nl - start <= this.#maxLineBytes) {
        this.#emit(out, bytes.toString("utf8", start, nl));
      } else {
        this.#append(bytes.subarray(start, nl));
        this.#finishLine(out);
      }
      start = nl + 1;
    }
    return out;
  }

  /** Flushes a final line that had no trailing newline. */
  end(): DecodedLine[] {
    const out: DecodedLine[] = [];
    if (this.#bytes > 0 || this.#overflowing) this.#finishLine(out);
    return out;
  }

  #append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.#overflowing) {
      this.#overflowBytes += bytes.length;
      return;
    }
    if (this.#bytes + bytes.length > this.#maxLineBytes) {
      this.#overflowing = true;
      const head = this.#parts.join("") + this.#decoder.write(bytes.subarray(0, Math.min(bytes.length, 512)));
      this.#overflowHead = head.slice(0, 256);
      this.#overflowBytes = this.#bytes + bytes.length;
      this.#parts = [];
      this.#bytes = 0;
      this.#decoder = new StringDecoder("utf8");
      return;
    }
    this.#bytes += bytes.length;
    this.#parts.push(this.#decoder.write(bytes));
  }

  #finishLine(out: DecodedLine[]): void {
    if (this.#overflowing) {
      out.push({ type: "overflow", bytes: this.#overflowBytes, head: this.#overflowHead });
      this.#overflowing = false;
      this.#overflowHead = "";
      this.#overflowBytes = 0;
      return;
    }
    // end() also resets the decoder for the next line
    const text = this.#parts.join("") + this.#decoder.end();
    this.#parts = [];
    this.#bytes = 0;
    this.#emit(out, text);
  }

  /** Adds a complete line without its `\n`: a `\r` before it is dropped, a blank line is skipped. */
  #emit(out: DecodedLine[], line: string): void {
    const text = line.charCodeAt(line.length - 1) === CR ? line.slice(0, -1) : line;
    if (text.charCodeAt(0) !== OPEN_BRACE && text.trim() === "") return;
    out.push({ type: "line", text });
  }
}
