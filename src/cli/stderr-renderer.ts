import type { Writable } from "node:stream";
import type { HarnessEvent } from "../harness/events.js";
import type { Colors } from "./color.js";
import type { EventRenderer } from "./event-renderer.js";
import type { Spinner } from "./spinner.js";

/** Where a human-facing renderer writes. */
export interface RendererOutput {
  stdout: Writable;
  stderr: Writable;
  colors: Colors;
  spinner: Spinner;
}

/**
 * What the human-facing renderers share: a spinner on stderr from `begin()` until the first output (it names
 * the model once the session started), warnings and notices as whole yellow lines on stderr. Subclasses render
 * every other event.
 */
export abstract class StderrRenderer implements EventRenderer {
  protected readonly stdout: Writable;
  protected readonly colors: Colors;
  protected readonly spinner: Spinner;
  readonly #stderr: Writable;

  constructor(output: RendererOutput) {
    this.stdout = output.stdout;
    this.#stderr = output.stderr;
    this.colors = output.colors;
    this.spinner = output.spinner;
  }

  begin(): void {
    this.spinner.start("starting codex");
  }

  render(event: HarnessEvent): void {
    if (event.type === "session.started") this.spinner.update(`waiting for ${event.model ?? "the model"}`);
    else if (event.type === "warning") this.line(this.colors.yellow(`! ${event.message}`));
    else this.renderEvent(event);
  }

  notice(message: string): void {
    this.line(this.colors.yellow(message));
  }

  end(): void {
    this.spinner.stop();
  }

  /** Every event but `session.started` and `warning`. */
  protected abstract renderEvent(event: HarnessEvent): void;

  /** Called before each line on stderr, once the spinner is stopped. */
  protected beforeLine(): void {}

  /** One whole line on stderr. */
  protected line(text: string): void {
    this.spinner.stop();
    this.beforeLine();
    this.#stderr.write(`${text}\n`);
  }
}
