import type { Writable } from "node:stream";
import type { HarnessEvent, HarnessName } from "../harness/events.js";
import { printableText, terminalText } from "../printable-text.js";
import type { Colors } from "./color.js";
import type { EventRenderer } from "./event-renderer.js";
import { harnessText } from "./harness-text.js";
import type { Spinner } from "./spinner.js";
import { fitColumns } from "./terminal-width.js";

/** Where a human-facing renderer writes. */
export interface RendererOutput {
  stdout: Writable;
  stderr: Writable;
  colors: Colors;
  spinner: Spinner;
  /** When stderr is a terminal, a line marked replaceable is rewritten in place by the next one of its kind. */
  stderrIsTTY?: boolean;
  /** The harness whose turn is rendered (the spinner names it before its first event). */
  harness: HarnessName;
}

/** How much of a warning (the agent's or the model server's message, its lines kept) is shown. */
const MAX_WARNING_CHARS = 2_000;

/** Moves the cursor to the start of the line above and clears that line. */
const REWRITE_PREVIOUS_LINE = "\x1b[1A\r\x1b[2K";

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
  readonly #stderrIsTTY: boolean;
  readonly #harness: HarnessName;
  /** The kind of the last line on stderr when it may be rewritten in place; null otherwise. */
  #replaceable: string | null = null;

  constructor(output: RendererOutput) {
    this.stdout = output.stdout;
    this.#stderr = output.stderr;
    this.#stderrIsTTY = output.stderrIsTTY ?? false;
    this.#harness = output.harness;
    this.colors = output.colors;
    this.spinner = output.spinner;
  }

  begin(): void {
    this.spinner.start(`starting ${harnessText(this.#harness).agent}`);
  }

  render(event: HarnessEvent): void {
    if (event.type === "session.started")
      this.spinner.update(
        `waiting for ${event.model === null ? "the model" : printableText(event.model, 80)}`,
      );
    else if (event.type === "warning")
      this.line(this.colors.yellow(`! ${terminalText(event.message, MAX_WARNING_CHARS)}`));
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
    this.#replaceable = null;
  }

  /**
   * A line on stderr that the next line of the same `kind` replaces in place while nothing else was written in
   * between (on a terminal, where it is cut to the terminal's width, in the columns its characters take, so that it stays one line; elsewhere every
   * line stays whole, one below the other). `decorate` colours the line after any cut.
   */
  protected replaceableLine(kind: string, text: string, decorate: (text: string) => string = (t) => t): void {
    const rewrite = this.#stderrIsTTY && this.#replaceable === kind;
    const columns = (this.#stderr as { columns?: unknown }).columns;
    const fitted =
      this.#stderrIsTTY && typeof columns === "number" && columns > 1 ? fitColumns(text, columns - 1) : text;
    this.spinner.stop();
    this.beforeLine();
    this.#stderr.write(`${rewrite ? REWRITE_PREVIOUS_LINE : ""}${decorate(fitted)}\n`);
    this.#replaceable = kind;
  }

  /** Something was written elsewhere on the terminal (stdout): the last stderr line is no longer the last one. */
  protected wroteElsewhere(): void {
    this.#replaceable = null;
  }
}
