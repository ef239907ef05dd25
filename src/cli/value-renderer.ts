import type { Writable } from "node:stream";
import type { HarnessEvent } from "../harness/events.js";
import type { ResolvedCliIo } from "./cli-io.js";
import { type Colors, createColors, shouldUseColor } from "./color.js";
import type { EventRenderer } from "./event-renderer.js";
import { JsonRenderer } from "./json-renderer.js";
import { summarizeTerminal } from "./outcome-summary.js";
import { createSpinner, type Spinner } from "./spinner.js";

/**
 * Default output of `codex exec`: nothing but the value on stdout; warnings and the outcome of a call that
 * did not complete on stderr, with a spinner there while waiting (terminal only).
 */
export class ValueRenderer implements EventRenderer {
  readonly #stdout: Writable;
  readonly #stderr: Writable;
  readonly #colors: Colors;
  readonly #spinner: Spinner;

  constructor(options: { stdout: Writable; stderr: Writable; colors: Colors; spinner: Spinner }) {
    this.#stdout = options.stdout;
    this.#stderr = options.stderr;
    this.#colors = options.colors;
    this.#spinner = options.spinner;
  }

  begin(): void {
    this.#spinner.start("starting codex");
  }

  render(event: HarnessEvent): void {
    switch (event.type) {
      case "session.started":
        this.#spinner.update(`waiting for ${event.model ?? "the model"}`);
        return;
      case "warning":
        this.#line(this.#colors.yellow(`! ${event.message}`));
        return;
      case "terminal":
        this.#spinner.stop();
        if (event.outcome === "completed") {
          this.#stdout.write(`${JSON.stringify(event.structuredOutput ?? null)}\n`);
          return;
        }
        for (const line of summarizeTerminal(event, this.#colors)) this.#line(line);
        return;
      default:
        return;
    }
  }

  notice(message: string): void {
    this.#line(this.#colors.yellow(message));
  }

  end(): void {
    this.#spinner.stop();
  }

  #line(text: string): void {
    this.#spinner.stop();
    this.#stderr.write(`${text}\n`);
  }
}

/** The renderer of `codex exec`: events as JSON lines with `--json`, else only the value. */
export function createExecRenderer(
  options: { json: boolean; color: boolean },
  io: ResolvedCliIo,
): EventRenderer {
  if (options.json) return new JsonRenderer(io.stdout, io.stderr);
  const colors = createColors(shouldUseColor({ isTTY: io.isTTY.stderr, env: io.env, flag: options.color }));
  return new ValueRenderer({
    stdout: io.stdout,
    stderr: io.stderr,
    colors,
    spinner: createSpinner(io.stderr, { enabled: io.isTTY.stderr, decorate: colors.cyan }),
  });
}
