import type { Readable, Writable } from "node:stream";
import { DEFAULT_MAX_LINE_BYTES, LineDecoder } from "./line-decoder.js";
import { parseFrame } from "./frame-parser.js";
import { DEFAULT_MAX_NESTING_DEPTH } from "./json-nesting.js";
import type { Transport, TransportClosed, TransportListener } from "./transport.js";

export interface StreamTransportOptions {
  /** Longest line accepted, in bytes of UTF-8. Default 16 MiB. */
  maxLineBytes?: number;
  /** Deepest nesting of objects/arrays accepted in one frame. Default {@link DEFAULT_MAX_NESTING_DEPTH} (512). */
  maxNestingDepth?: number;
}

/** A {@link Transport} over a readable/writable stream pair: a child's stdout and stdin, or in-memory pipes. */
export class StreamTransport implements Transport {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #decoder: LineDecoder;
  readonly #maxNestingDepth: number;
  #listener: TransportListener | null = null;
  #closed = false;
  #outputEnded = false;
  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    for (const line of this.#decoder.push(bytes)) this.#deliver(line);
  };
  readonly #onEnd = (): void => {
    for (const line of this.#decoder.end()) this.#deliver(line);
    this.#finish({ type: "eof" });
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
    if (this.#listener) throw new Error("StreamTransport.start called twice");
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
    // keep no-op error listeners so a late stream error never becomes an uncaught exception
    this.#input.on("error", () => {});
    this.#output.on("error", () => {});
    this.#listener?.closed(reason);
  }
}
