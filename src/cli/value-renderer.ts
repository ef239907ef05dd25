import type { HarnessEvent } from "../harness/events.js";
import { unicodeEscape } from "../printable-text.js";
import { summarizeTerminal } from "./outcome-summary.js";
import { StderrRenderer, type RendererOutput } from "./stderr-renderer.js";

/**
 * What `JSON.stringify` leaves raw that a terminal acts on or reorders text by: DEL, C1 controls, the line and
 * paragraph separators, bidi embeddings, overrides and isolates (it escapes the C0 controls itself).
 */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export interface ValueRendererOptions extends RendererOutput {
  /** When stdout is a terminal, the value's JSON has every character of `RAW_IN_JSON` as a `\uXXXX` escape. */
  stdoutIsTTY: boolean;
}

/**
 * Default output of `codex exec`: nothing but the value on stdout; warnings and the outcome of a call that
 * did not complete on stderr, with a spinner there while waiting (terminal only). On a terminal the value's
 * JSON escapes what could drive it (the same value, inert); a pipe gets `JSON.stringify`'s text as it is.
 */
export class ValueRenderer extends StderrRenderer {
  readonly #stdoutIsTTY: boolean;

  constructor(options: ValueRendererOptions) {
    super(options);
    this.#stdoutIsTTY = options.stdoutIsTTY;
  }

  protected renderEvent(event: HarnessEvent): void {
    if (event.type !== "terminal") return;
    this.spinner.stop();
    if (event.outcome === "completed") {
      const json = JSON.stringify(event.structuredOutput ?? null);
      this.stdout.write(`${this.#stdoutIsTTY ? json.replace(RAW_IN_JSON, unicodeEscape) : json}\n`);
      return;
    }
    for (const line of summarizeTerminal(event, this.colors)) this.line(line);
  }
}
