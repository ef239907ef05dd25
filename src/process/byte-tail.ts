/** The default size of a child's kept stderr tail. */
export const DEFAULT_STDERR_TAIL_BYTES = 8 * 1024;

/** Keeps only the last `maxBytes` bytes pushed into it (memory stays bounded however much is written). */
export class ByteTail {
  readonly maxBytes: number;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(maxBytes: number = DEFAULT_STDERR_TAIL_BYTES) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)
      throw new RennetError("INTERNAL_ERROR", `maxBytes must be positive, got ${maxBytes}`);
    this.maxBytes = maxBytes;
  }

  /** Appends bytes (strings are taken as UTF-8), dropping the oldest beyond `maxBytes`. */
  push(chunk: Buffer | string): void {
    let bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    // copy a slice of an oversized chunk so the big buffer is not retained
    if (bytes.length > this.maxBytes) bytes = Buffer.from(bytes.subarray(bytes.length - this.maxBytes));
    this.#chunks.push(bytes);
    this.#size += bytes.length;
    for (
      let first = this.#chunks[0];
      first && this.#size - first.length >= this.maxBytes;
      first = this.#chunks[0]
    ) {
      this.#chunks.shift();
      this.#size -= first.length;
    }
  }

  /** The kept bytes decoded as UTF-8, with no character cut in half at either end. */
  text(): string {
    const all = Buffer.concat(this.#chunks, this.#size);
    return decodeUtf8Whole(all.subarray(Math.max(0, all.length - this.maxBytes)));
  }
}

/**
 * Decodes bytes cut out of a longer UTF-8 stream: continuation bytes at the start (the tail of a character
 * cut off) and an incomplete sequence at the end (a character not yet fully written) are left out. Pure.
 */
import { RennetError } from "../errors.js";
export function decodeUtf8Whole(bytes: Uint8Array): string {
  let start = 0;
  while (start < bytes.length && start < 3 && isContinuation(bytes[start])) start++;
  let end = bytes.length;
  // find the lead byte of the last sequence and drop it if the sequence is incomplete
  let lead = end - 1;
  while (lead > start && end - lead < 4 && isContinuation(bytes[lead])) lead--;
  if (lead >= start) {
    const expected = sequenceLength(bytes[lead]);
    if (expected > 1 && lead + expected > end) end = lead;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("utf8");
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

function sequenceLength(byte: number | undefined): number {
  if (byte === undefined) return 1;
  if ((byte & 0xe0) === 0xc0) return 2;
  if ((byte & 0xf0) === 0xe0) return 3;
  if ((byte & 0xf8) === 0xf0) return 4;
  return 1;
}
