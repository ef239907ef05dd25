import type { Readable, Writable } from "node:stream";
import { DEFAULT_MAX_LINE_BYTES, LineDecoder, type DecodedLine } from "./line-decoder.js";
import { parseFrame } from "./frame-parser.js";
import { DEFAULT_MAX_NESTING_DEPTH } from "./json-nesting.js";
import type { CutLine, Transport, TransportClosed, TransportListener } from "./transport.js";
import { RennetError } from "../errors.js";

export interface StreamTransportOptions {
  /** Longest line accepted, in bytes of UTF-8. Default 16 MiB. */
  maxLineBytes?: number;
  /** Deepest nesting of objects/arrays accepted in one frame. Default {@link DEFAULT_MAX_NESTING_DEPTH} (512). */
  maxNestingDepth?: number;
}

/** How much of a cut last line is kept as evidence. */
const CUT_HEAD_CHARS = 256;

/** A {@link Transport} over a readable/writable stream pair: a child's stdout and stdin, or in-memory pipes. */
export class StreamTransport implements Transport {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #decoder: LineDecoder;
  readonly #maxNestingDepth: number;
  #listener: TransportListener | null = null;
  #closed = false;
  #outputEnded = false;
  #paused = false;
  /** Set once the input ended: from then on `pause()` does nothing, so every held line is delivered. */
  #ending = false;
  /** Lines read but not yet delivered (while paused), oldest at `#heldAt`. */
  #held: DecodedLine[] = [];
  #heldAt = 0;
  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    // lines queue behind any still held (a chunk may arrive after pause(): the stream had already read it), and
    // go out in order until a listener pauses
    const lines = this.#decoder.push(bytes);
    if (this.#heldAt >= this.#held.length) {
      // nothing is held: the decoder's fresh array becomes the queue (no copy per line)
      this.#held = lines;
      this.#heldAt = 0;
    } else for (const line of lines) this.#held.push(line);
    this.#deliverHeld();
  };
  readonly #onEnd = (): void => {
    // the peer's output is over: nothing more can pile up, so what was held goes out before the close
    this.#ending = true;
    this.#paused = false;
    this.#deliverHeld();
    let cut: CutLine | undefined;
    for (const line of this.#decoder.end()) cut = this.#deliverLast(line);
    this.#finish(cut ? { type: "eof", cut } : { type: "eof" });
  };
  readonly #onInputError = (): void => {
    this.#finish({ type: "eof" });
  };
  readonly #onOutputError = (error: Error): void => {
    this.#finish({ type: "write-error", message: error.message });
  };

  constructor(input: Readable, output: Writable, options: StreamTransportOptions = {}) {
    this.#input = input;
    this.#output = output;
    this.#decoder = new LineDecoder(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    this.#maxNestingDepth = options.maxNestingDepth ?? DEFAULT_MAX_NESTING_DEPTH;
  }

  get isClosed(): boolean {
    return this.#closed;
  }

  start(listener: TransportListener): void {
    if (this.#listener) throw new RennetError("INTERNAL_ERROR", "StreamTransport.start called twice");
    this.#listener = listener;
    this.#input.on("data", this.#onData);
    this.#input.once("end", this.#onEnd);
    this.#input.once("close", this.#onEnd);
    this.#input.on("error", this.#onInputError);
    this.#output.on("error", this.#onOutputError);
  }

  send(frame: object): boolean {
    if (this.#closed || this.#outputEnded || this.#output.destroyed || this.#output.writableEnded) {
      return false;
    }
    let text: string;
    try {
      text = `${JSON.stringify(frame)}\n`;
    } catch {
      return false; // not serializable (a cycle, a BigInt): nothing is written and the stream stays usable
    }
    try {
      this.#output.write(text, (error) => {
        if (error) this.#finish({ type: "write-error", message: error.message });
      });
    } catch (error) {
      queueMicrotask(() => this.#finish({ type: "write-error", message: (error as Error).message }));
      return false;
    }
    return true;
  }

  endOutput(): void {
    if (this.#outputEnded) return;
    this.#outputEnded = true;
    try {
      this.#output.end();
    } catch {
      // the stream is already gone; nothing to end
    }
  }

  close(): void {
    this.endOutput();
    this.#finish({ type: "local" });
  }

  pause(): void {
    if (this.#closed || this.#paused || this.#ending) return;
    this.#paused = true;
    this.#input.pause();
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#deliverHeld();
    if (!this.#paused && !this.#closed) this.#input.resume();
  }

  /** Delivers held lines until they run out or a listener pauses again (then the rest stays held). */
  #deliverHeld(): void {
    while (this.#heldAt < this.#held.length && !this.#paused && !this.#closed) {
      const line = this.#held[this.#heldAt++] as DecodedLine;
      this.#deliver(line);
    }
    if (this.#heldAt >= this.#held.length || this.#closed) {
      this.#held = [];
      this.#heldAt = 0;
    }
  }

  /**
   * The line the input ended inside (no newline after it): delivered when it is a whole frame, else returned as
   * the cut it is (never reported as an invalid line).
   */
  #deliverLast(line: DecodedLine): CutLine | undefined {
    if (line.type === "overflow") return { bytes: line.bytes, head: line.head };
    if (isWholeJson(line.text)) {
      this.#deliver(line);
      return undefined;
    }
    return { bytes: Buffer.byteLength(line.text, "utf8"), head: line.text.slice(0, CUT_HEAD_CHARS) };
  }

  #deliver(line: Parameters<typeof parseFrame>[0]): void {
    if (this.#closed || !this.#listener) return;
    const parsed = parseFrame(line, this.#maxNestingDepth);
    if (parsed.type === "frame") this.#listener.frame(parsed.frame);
    else this.#listener.invalid(parsed.message, parsed.line);
  }

  #finish(reason: TransportClosed): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off("data", this.#onData);
    this.#input.off("end", this.#onEnd);
    this.#input.off("close", this.#onEnd);
    this.#held = [];
    this.#heldAt = 0;
    // read on to the end (into nothing) so a paused pipe drains and closes, and a child writing to it is not blocked
    if (this.#paused) {
      this.#paused = false;
      this.#input.resume();
    }
    // keep no-op error listeners so a late stream error never becomes an uncaught exception
    this.#input.on("error", () => {});
    this.#output.on("error", () => {});
    this.#listener?.closed(reason);
  }
}

/** Whether `text` is one whole JSON value (a line that is not may have been cut short). */
function isWholeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
