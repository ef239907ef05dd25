import type { HarnessEvent } from "../harness/events.js";
import { printedJson } from "../printable-text.js";
import { summarizeTerminal } from "./outcome-summary.js";
import { StderrRenderer, type RendererOutput } from "./stderr-renderer.js";

export interface ValueRendererOptions extends RendererOutput {
  /** When stdout is a terminal, the value's JSON is written through `printedJson`. */
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
      this.stdout.write(`${printedJson(json, this.#stdoutIsTTY)}\n`);
      return;
    }
    for (const line of summarizeTerminal(event, this.colors)) this.line(line);
  }
}
