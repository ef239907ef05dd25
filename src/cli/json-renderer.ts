import type { Writable } from "node:stream";
import type { HarnessEvent } from "../harness/events.js";
import type { EventRenderer } from "./event-renderer.js";

/** `--json`: exactly one event per line on stdout and nothing else there; notices go to stderr. */
export class JsonRenderer implements EventRenderer {
  readonly #stdout: Writable;
  readonly #stderr: Writable;

  constructor(stdout: Writable, stderr: Writable) {
    this.#stdout = stdout;
    this.#stderr = stderr;
  }

  begin(): void {}

  render(event: HarnessEvent): void {
    this.#stdout.write(`${JSON.stringify(event)}\n`);
  }

  notice(message: string): void {
    this.#stderr.write(`rennet: ${message}\n`);
  }

  end(): void {}
}
