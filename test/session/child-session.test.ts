/**
 * ChildSession with a child that speaks plain JSON lines (no JSON-RPC), the way a stream-json agent does: its
 * frames and writes, its departure in either order, the read throttle, the abort wiring and the one end.
 */
import { describe, expect, it } from "vitest";
import { EVENT_QUEUE_HIGH_WATER } from "../../src/harness/event-channel.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { createInMemoryTransportPair, type InMemoryEnd } from "../../src/jsonl/in-memory-transport.js";
import type { TransportClosed } from "../../src/jsonl/transport.js";
import type { Launcher, ProcessExit, StdioChild } from "../../src/process/stdio-child.js";
import { ChildSession, type ChildGone } from "../../src/session/child-session.js";
import { ReadThrottle } from "../../src/session/read-throttle.js";
import { waitFor } from "../helpers/wait.js";

/** A child in memory: `peer` is its side of the pipes; `exit()` ends it; `terminations` counts the ends asked. */
function lineChild(): {
  launcher: Launcher;
  peer: () => InMemoryEnd;
  exit: (exit?: ProcessExit) => void;
  terminations: () => number;
} {
  let peer: InMemoryEnd | null = null;
  let resolveExit: (exit: ProcessExit) => void = () => {};
  let terminations = 0;
  const launcher: Launcher = (): StdioChild => {
    const [ours, theirs] = createInMemoryTransportPair();
    peer = theirs;
    const exit = new Promise<ProcessExit>((resolve) => {
      resolveExit = resolve;
    });
    return {
      pid: null,
      transport: ours.transport,
      exit,
      stderrTail: () => "last words\n",
      terminate: async () => {
        terminations += 1;
        theirs.endRaw();
        resolveExit({ type: "exited", code: null, signal: "SIGTERM" });
      },
    };
  };
  return {
    launcher,
    peer: () => peer as InMemoryEnd,
    exit: (exit = { type: "exited", code: 0, signal: null }) => resolveExit(exit),
    terminations: () => terminations,
  };
}

function reader(session: ChildSession): { frames: unknown[]; invalid: string[]; closed: TransportClosed[] } {
  const seen = { frames: [] as unknown[], invalid: [] as string[], closed: [] as TransportClosed[] };
  session.read({
    frame: (frame) => seen.frames.push(frame),
    invalid: (_message, line) => seen.invalid.push(line),
    closed: (reason) => seen.closed.push(reason),
  });
  return seen;
}

/** A started session on a new line child, read from, its departures collected. */
function watched(): { child: ReturnType<typeof lineChild>; session: ChildSession; gone: ChildGone[] } {
  const child = lineChild();
  const gone: ChildGone[] = [];
  const session = ChildSession.start({
    launcher: child.launcher,
    spec: { command: "agent", args: [] },
    onGone: (g) => gone.push(g),
  });
  reader(session);
  return { child, session, gone };
}

describe("ChildSession with a JSON-lines child", () => {
  it("reads its frames and its other lines, writes lines to it, and ends its input", async () => {
    const child = lineChild();
    const session = ChildSession.start({ launcher: child.launcher, spec: { command: "agent", args: [] } });
    const seen = reader(session);
    const written: unknown[] = [];
    child.peer().transport.start({ frame: (f) => written.push(f), invalid: () => {}, closed: () => {} });
    child.peer().writeRaw('{"type":"system","subtype":"init"}\nnot json\n{"type":"result"}\n');
    expect(session.write({ type: "user", message: { role: "user", content: "hi" } })).toBe(true);
    await waitFor(() => seen.frames.length === 2 && written.length === 1);
    expect(seen.frames).toEqual([{ type: "system", subtype: "init" }, { type: "result" }]);
    expect(seen.invalid).toEqual(["not json"]);
    expect(written).toEqual([{ type: "user", message: { role: "user", content: "hi" } }]);
    session.endInput();
    expect(session.write({ type: "late" })).toBe(false);
    await session.end();
  });

  it.each(["exit first", "output first"] as const)(
    "is gone once it exited and its output closed (%s), with its exit, close and stderr",
    async (order) => {
      const { child, session, gone } = watched();
      if (order === "exit first") child.exit();
      else child.peer().endRaw();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(gone).toEqual([]);
      if (order === "exit first") child.peer().endRaw();
      else child.exit();
      const departed = await session.gone();
      expect(departed).toEqual({
        exit: { type: "exited", code: 0, signal: null },
        closed: { type: "eof" },
        stderrTail: "last words\n",
      });
      expect(gone).toEqual([departed]);
      await session.end();
    },
  );

  it("a child that never started is gone at once", async () => {
    const child = lineChild();
    const session = ChildSession.start({ launcher: child.launcher, spec: { command: "agent", args: [] } });
    reader(session);
    child.exit({ type: "spawn-error", errno: "ENOENT", message: "no such file" });
    const gone = await session.gone();
    expect(gone.exit).toMatchObject({ type: "spawn-error", errno: "ENOENT" });
    expect(gone.closed).toBeNull();
    await session.end();
  });

  it("ends the tree once however often end() is called, and reports no departure after it", async () => {
    const { child, session, gone } = watched();
    await Promise.all([session.end(), session.end({ graceMs: 5 })]);
    await session.end();
    expect(child.terminations()).toBe(1);
    expect(gone).toEqual([]);
    expect(session.transport.isClosed).toBe(true);
  });

  it("an abort of its signal ends the tree; an already aborted one ends it at once", async () => {
    const controller = new AbortController();
    const child = lineChild();
    const session = ChildSession.start({
      launcher: child.launcher,
      spec: { command: "agent", args: [] },
      signal: controller.signal,
    });
    reader(session);
    expect(child.terminations()).toBe(0);
    controller.abort(new Error("stop"));
    await waitFor(() => child.terminations() === 1);
    await session.end();
    const late = lineChild();
    const ended = ChildSession.start({
      launcher: late.launcher,
      spec: { command: "a", args: [] },
      signal: controller.signal,
    });
    reader(ended);
    await waitFor(() => late.terminations() === 1);
  });

  it("pauses reading while the owner's consumer is behind, and reads on for good once the child exited", async () => {
    const child = lineChild();
    const throttle = new ReadThrottle();
    const channel = throttle.channel(() => {});
    const session = ChildSession.start({
      launcher: child.launcher,
      spec: { command: "agent", args: [] },
      throttle,
    });
    const seen = reader(session);
    channel[Symbol.asyncIterator](); // the consumer has begun reading, and reads nothing more
    for (let i = 0; i < EVENT_QUEUE_HIGH_WATER; i++)
      channel.push({ type: "usage" } as unknown as HarnessEvent);
    child.peer().writeRaw('{"n":1}\n');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(seen.frames).toEqual([]);
    child.exit();
    await waitFor(() => seen.frames.length === 1);
    await session.end();
  });
});
