import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createSpinner } from "../../src/cli/spinner.js";

/** A terminal `columns` wide that keeps what was written. */
function terminal(columns: number): Writable & { text: string; columns: number } {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sink.text += chunk.toString("utf8");
      callback();
    },
  }) as Writable & { text: string; columns: number };
  sink.text = "";
  sink.columns = columns;
  return sink;
}

/** The visible text of each frame the spinner drew (between `\r` and the erase to the end of the line). */
function frames(text: string): string[] {
  const erase = "\x1b[K";
  return text
    .split("\r")
    .filter((part) => part.endsWith(erase) && part !== erase)
    .map((part) => part.slice(0, -erase.length));
}

describe("createSpinner", () => {
  it("cuts its line to the terminal's width, so that a redraw never adds a row", () => {
    const stream = terminal(20);
    const spinner = createSpinner(stream, { enabled: true });
    spinner.start("waiting for a-model-with-a-rather-long-name");
    spinner.stop();
    const [frame] = frames(stream.text);
    expect(frame).toBe("⠋ waiting for a-mo…");
    expect([...(frame ?? "")].length).toBeLessThan(20);
  });

  it("cuts a label of wide characters by the columns they take", () => {
    const stream = terminal(20);
    const spinner = createSpinner(stream, { enabled: true });
    spinner.start(`waiting for ${"模".repeat(10)}`);
    spinner.stop();
    // 2 + 12 + 2 × 2 + 1 = 19 columns: the line never reaches the terminal's edge
    expect(frames(stream.text)).toEqual([`⠋ waiting for ${"模".repeat(2)}…`]);
  });

  it("draws a label that fits as it is", () => {
    const stream = terminal(80);
    const spinner = createSpinner(stream, { enabled: true });
    spinner.start("starting codex");
    spinner.stop();
    expect(frames(stream.text)).toEqual(["⠋ starting codex"]);
  });
});
