import { Writable } from "node:stream";
import { setImmediate as tick } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { driveSession } from "../../src/cli/drive-session.js";
import type { EventRenderer } from "../../src/cli/event-renderer.js";
import { EventChannel } from "../../src/harness/event-channel.js";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import type { HarnessSession } from "../../src/harness/session.js";

const base = { harness: "codex", sessionId: "s", turnId: "t", at: "2026-01-01T00:00:00.000Z" } as const;
let seq = 0;
const delta = (): HarnessEvent => ({ ...base, seq: ++seq, type: "text.delta", itemId: "m", text: "x" });
const terminal = {
  ...base,
  seq: 1_000_000,
  type: "terminal",
  outcome: "completed",
} as unknown as TerminalEvent;

/** A stdout whose reader has stalled: every write is held until `release()`. */
function stalledStdout(): { stdout: Writable; written: () => number; release: () => void } {
  let held: (() => void)[] = [];
  let lines = 0;
  let flowing = false;
  const stdout = new Writable({
    highWaterMark: 64,
    write(chunk: Buffer, _encoding, callback) {
      lines += chunk.toString().split("\n").length - 1;
      if (flowing) callback();
      else held.push(() => callback());
    },
  });
  const release = () => {
    flowing = true;
    const callbacks = held;
    held = [];
    for (const callback of callbacks) callback();
  };
  return { stdout, written: () => lines, release };
}

/** Writes each event as one line, as the `--json` renderer does on a terminal. */
function lineRenderer(stdout: Writable): EventRenderer {
  return {
    begin() {},
    render: (event) => void stdout.write(`${JSON.stringify(event)}\n`),
    notice() {},
    end() {},
  };
}

describe("driveSession and a stdout whose reader stalls", () => {
  it("stops taking events while stdout waits to drain, so the session's backpressure reaches the agent", async () => {
    const events = new EventChannel<HarnessEvent>();
    let resolveResult!: (event: TerminalEvent) => void;
    const result = new Promise<TerminalEvent>((resolve) => (resolveResult = resolve));
    const session: HarnessSession = { id: "s", events, result, cancel() {}, steer: async () => {} };
    const { stdout, written, release } = stalledStdout();
    const driven = driveSession(session, lineRenderer(stdout), stdout);

    for (let i = 0; i < 100; i++) events.push(delta());
    await tick();
    await tick();
    const takenBeforeStall = 100 - events.length;
    expect(takenBeforeStall).toBeGreaterThan(0);
    for (let i = 0; i < 500; i++) events.push(delta());
    for (let i = 0; i < 5; i++) await tick();
    // nothing more is taken (and so buffered in stdout) while the reader does not read
    expect(events.length).toBe(600 - takenBeforeStall);

    release();
    events.push(terminal);
    events.close();
    resolveResult(terminal);
    await expect(driven).resolves.toBe(terminal);
    expect(events.length).toBe(0);
    expect(written()).toBe(601);
  });

  it("goes on when stdout fails instead of draining (the reader went away)", async () => {
    const events = new EventChannel<HarnessEvent>();
    let cancelled: unknown = null;
    const session: HarnessSession = {
      id: "s",
      events,
      result: Promise.resolve(terminal),
      cancel: (reason) => void (cancelled = reason),
      steer: async () => {},
    };
    const { stdout } = stalledStdout();
    const driven = driveSession(session, lineRenderer(stdout), stdout);
    for (let i = 0; i < 100; i++) events.push(delta());
    await tick();
    stdout.destroy(Object.assign(new Error("EPIPE: broken pipe"), { code: "EPIPE" }));
    events.push(terminal);
    events.close();
    await expect(driven).resolves.toBe(terminal);
    expect(events.length).toBe(0);
    expect(cancelled).toMatchObject({ code: "CLI_STDOUT_CLOSED" });
  });
});
