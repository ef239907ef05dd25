import type { Writable } from "node:stream";
import { fitColumns } from "./terminal-width.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const INTERVAL_MS = 80;

/** A one-line activity indicator (cut to the terminal's width, so that it stays one line). */
export interface Spinner {
  /** Shows the spinner (draws the first frame at once). Does nothing when already spinning or disabled. */
  start(label: string): void;
  /** Changes the label while spinning. */
  update(label: string): void;
  /** Erases the spinner line. Safe to call at any time. */
  stop(): void;
  readonly spinning: boolean;
}

/**
 * A spinner on stderr. Disabled (every method a no-op) unless `enabled`: the CLI enables it only when stderr
 * is a terminal and never in `--json` mode. The timer is unref'd so it never keeps the process alive.
 */
export function createSpinner(
  stream: Writable,
  options: { enabled: boolean; decorate?: (frame: string) => string },
): Spinner {
  let timer: NodeJS.Timeout | null = null;
  let frame = 0;
  let label = "";
  const decorate = options.decorate ?? ((s: string) => s);
  const draw = (): void => {
    // the line must not wrap: `\r` returns to the start of the last row only, so each frame would add a row
    const columns = (stream as { columns?: unknown }).columns;
    const fitted = typeof columns === "number" && columns > 4 ? fitColumns(label, columns - 3) : label;
    stream.write(`\r${decorate(FRAMES[frame % FRAMES.length] ?? "")} ${fitted}\x1b[K`);
    frame += 1;
  };
  return {
    get spinning() {
      return timer !== null;
    },
    start(text) {
      if (!options.enabled || timer !== null) return;
      label = text;
      draw();
      timer = setInterval(draw, INTERVAL_MS);
      timer.unref();
    },
    update(text) {
      label = text;
    },
    stop() {
      if (timer === null) return;
      clearInterval(timer);
      timer = null;
      stream.write("\r\x1b[K");
    },
  };
}
