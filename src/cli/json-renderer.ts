import type { Writable } from "node:stream";
import type { HarnessEvent } from "../harness/events.js";
import { EventJsonEncoder } from "./event-json.js";
import type { EventRenderer } from "./event-renderer.js";
import { DEFAULT_CHUNK_BYTES, Utf8Chunks } from "./utf8-chunks.js";
import { terminalJson } from "../printable-text.js";

/**
 * `--json`: exactly one event per line on stdout and nothing else there; notices go to stderr.
 * Lines rendered in one burst are written together (at the latest on the next event-loop turn, at once for
 * the terminal event, once a chunk of bytes is full, before a notice and at `end()`), so a flood of deltas costs
 * one write per chunk rather than one per event. Lines are encoded straight to UTF-8 bytes. A terminal gets each
 * line at once, through `terminalJson` (the same value, with nothing in it that could drive the terminal).
 */
export class JsonRenderer implements EventRenderer {
  readonly #stdout: Writable;
  readonly #stderr: Writable;
  readonly #terminal: boolean;
  readonly #encoder = new EventJsonEncoder();
  readonly #out = new Utf8Chunks();
  #flushScheduled = false;

  /** `terminal`: stdout is a terminal. */
  constructor(stdout: Writable, stderr: Writable, terminal = false) {
    this.#stdout = stdout;
    this.#stderr = stderr;
    this.#terminal = terminal;
  }

  begin(): void {}

  render(event: HarnessEvent): void {
    if (this.#terminal) {
      this.#stdout.write(`${terminalJson(JSON.stringify(event))}\n`);
      return;
    }
    this.#encoder.write(event, this.#out);
    if (event.type === "terminal" || this.#out.length >= DEFAULT_CHUNK_BYTES) this.#flush();
    else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flushScheduled = false;
        this.#flush();
      });
    }
  }

  notice(message: string): void {
    this.#flush();
    this.#stderr.write(`rennet: ${message}\n`);
  }

  end(): void {
    this.#flush();
  }

  #flush(): void {
    for (const bytes of this.#out.take()) this.#stdout.write(bytes);
  }
}
