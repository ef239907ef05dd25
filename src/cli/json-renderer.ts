import type { Writable } from "node:stream";
import type { HarnessEvent } from "../harness/events.js";
import { EventJsonEncoder } from "./event-json.js";
import type { EventRenderer } from "./event-renderer.js";

/** How many bytes of rendered lines may wait before they are written without waiting for the next tick. */
const FLUSH_CHARS = 64 * 1024;

/**
 * `--json`: exactly one event per line on stdout and nothing else there; notices go to stderr.
 * Lines rendered in one burst are written together (at the latest on the next event-loop turn, at once for
 * the terminal event, before a notice and at `end()`), so a flood of deltas costs one write per burst rather
 * than one per event.
 */
export class JsonRenderer implements EventRenderer {
  readonly #stdout: Writable;
  readonly #stderr: Writable;
  readonly #encoder = new EventJsonEncoder();
  #pending = "";
  #flushScheduled = false;

  constructor(stdout: Writable, stderr: Writable) {
    this.#stdout = stdout;
    this.#stderr = stderr;
  }

  begin(): void {}

  render(event: HarnessEvent): void {
    this.#pending += `${this.#encoder.encode(event)}\n`;
    if (event.type === "terminal" || this.#pending.length >= FLUSH_CHARS) this.#flush();
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
    if (this.#pending === "") return;
    const lines = this.#pending;
    this.#pending = "";
    this.#stdout.write(lines);
  }
}
