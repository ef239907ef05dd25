import type { HarnessEvent } from "../harness/events.js";
import { summarizeTerminal } from "./outcome-summary.js";
import { StderrRenderer } from "./stderr-renderer.js";

/**
 * Default output of `codex exec`: nothing but the value on stdout; warnings and the outcome of a call that
 * did not complete on stderr, with a spinner there while waiting (terminal only).
 */
export class ValueRenderer extends StderrRenderer {
  protected renderEvent(event: HarnessEvent): void {
    if (event.type !== "terminal") return;
    this.spinner.stop();
    if (event.outcome === "completed") {
      this.stdout.write(`${JSON.stringify(event.structuredOutput ?? null)}\n`);
      return;
    }
    for (const line of summarizeTerminal(event, this.colors)) this.line(line);
  }
}
