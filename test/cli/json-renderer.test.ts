import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { JsonRenderer } from "../../src/cli/json-renderer.js";
import { ev } from "./helpers/human-render-harness.js";
import { TextSink } from "./helpers/cli-harness.js";

/** A sink that also records each write it received. */
class CountingSink extends TextSink {
  writes: string[] = [];
  override _write(
    chunk: Buffer | string,
    encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ) {
    this.writes.push(String(chunk));
    super._write(chunk, encoding, callback);
  }
}

const delta = (text: string) => ev({ type: "text.delta", itemId: "m", text });

describe("JsonRenderer", () => {
  it("writes a burst of events as one write of one line each, on the next event-loop turn", async () => {
    const stdout = new CountingSink();
    const renderer = new JsonRenderer(stdout, new TextSink());
    const events = [delta("a"), delta("b"), delta("c")];
    for (const event of events) renderer.render(event);
    expect(stdout.writes).toEqual([]);
    await nextTurn();
    expect(stdout.writes).toHaveLength(1);
    expect(
      stdout.text
        .split("\n")
        .slice(0, -1)
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(events);
  });

  it("writes the terminal event (and everything before it) at once", () => {
    const stdout = new CountingSink();
    const renderer = new JsonRenderer(stdout, new TextSink());
    renderer.render(delta("a"));
    renderer.render(ev({ type: "terminal", outcome: "completed" } as never));
    expect(stdout.text.trim().split("\n")).toHaveLength(2);
    const last = JSON.parse(stdout.text.trim().split("\n").at(-1) ?? "") as { type: string };
    expect(last.type).toBe("terminal");
  });

  it("writes what is pending before a notice, and at end()", () => {
    const stdout = new CountingSink();
    const stderr = new TextSink();
    const renderer = new JsonRenderer(stdout, stderr);
    renderer.render(delta("a"));
    renderer.notice("cancelling");
    expect(stdout.writes).toHaveLength(1);
    expect(stderr.text).toBe("rennet: cancelling\n");
    renderer.render(delta("b"));
    renderer.end();
    expect(stdout.writes).toHaveLength(2);
  });

  it("writes early once a burst grows large, without waiting for the next turn", () => {
    const stdout = new CountingSink();
    const renderer = new JsonRenderer(stdout, new TextSink());
    for (let index = 0; index < 2_000; index++) renderer.render(delta("x".repeat(64)));
    expect(stdout.writes.length).toBeGreaterThan(0);
    expect(stdout.text.split("\n").length).toBeLessThan(2_001);
  });
});
