import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createInMemoryTransportPair } from "../../src/jsonl/in-memory-transport.js";
import { StreamTransport } from "../../src/jsonl/stream-transport.js";
import type { TransportClosed, TransportListener } from "../../src/jsonl/transport.js";

interface Recorded {
  frames: Record<string, unknown>[];
  invalid: { message: string; line: string }[];
  closed: TransportClosed[];
  listener: TransportListener;
  /** Resolves at the first `closed`. */
  whenClosed: Promise<TransportClosed>;
}

function recorder(): Recorded {
  let resolveClosed!: (reason: TransportClosed) => void;
  const rec: Recorded = {
    frames: [],
    invalid: [],
    closed: [],
    whenClosed: new Promise((resolve) => {
      resolveClosed = resolve;
    }),
    listener: {
      frame: (frame) => rec.frames.push(frame),
      invalid: (message, line) => rec.invalid.push({ message, line }),
      closed: (reason) => {
        rec.closed.push(reason);
        resolveClosed(reason);
      },
    },
  };
  return rec;
}

/** A transport reading from a PassThrough we write raw bytes into. */
function readingFrom(options: { maxLineBytes?: number } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StreamTransport(input, output, options);
  const rec = recorder();
  transport.start(rec.listener);
  return { input, output, transport, rec };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Two in-memory transports wired to each other, both started, each with its own recorder. */
function startedPair() {
  const [a, b] = createInMemoryTransportPair();
  const recA = recorder();
  const recB = recorder();
  a.transport.start(recA.listener);
  b.transport.start(recB.listener);
  return { a, b, recA, recB };
}

describe("StreamTransport reading", () => {
  it("delivers frames written in arbitrary chunks, CRLF and blank lines included, and a final unterminated line", async () => {
    const { input, rec } = readingFrom();
    const bytes = Buffer.from('{"a":"é"}\r\n\n{"b":"😀"}\n   \n{"c":3}', "utf8");
    for (let i = 0; i < bytes.length; i += 3) input.write(bytes.subarray(i, i + 3));
    input.end();
    expect(await rec.whenClosed).toEqual({ type: "eof" });
    expect(rec.frames).toEqual([{ a: "é" }, { b: "😀" }, { c: 3 }]);
    expect(rec.invalid).toEqual([]);
    expect(rec.closed).toHaveLength(1);
  });

  it("reports an unfinished last line as cut on the close, not as an invalid line", async () => {
    const { input, rec } = readingFrom();
    input.end('{"ok":1}\n{"method":"x","params":{"pad":"abc');
    expect(await rec.whenClosed).toEqual({
      type: "eof",
      cut: { bytes: 34, head: '{"method":"x","params":{"pad":"abc' },
    });
    expect(rec.frames).toEqual([{ ok: 1 }]);
    expect(rec.invalid).toEqual([]);
  });

  it("keeps only the head of a long cut line, and counts an over-cap one as cut too", async () => {
    const long = readingFrom();
    long.input.end(`{"pad":"${"x".repeat(1000)}`);
    const closed = await long.rec.whenClosed;
    expect(closed).toMatchObject({ type: "eof", cut: { bytes: 1008 } });
    expect(closed.type === "eof" && closed.cut?.head.length).toBe(256);
    const over = readingFrom({ maxLineBytes: 64 });
    over.input.end(`{"pad":"${"x".repeat(100)}`);
    expect(await over.rec.whenClosed).toMatchObject({ type: "eof", cut: { bytes: 108 } });
    expect(over.rec.invalid).toEqual([]);
  });

  it("reports a whole last line that is JSON but no frame as invalid, as any other line", async () => {
    const { input, rec } = readingFrom();
    input.end("[1,2]");
    expect(await rec.whenClosed).toEqual({ type: "eof" });
    expect(rec.invalid.map((i) => i.line)).toEqual(["[1,2]"]);
  });

  it("reports a malformed line and a non-object line as invalid and keeps reading", async () => {
    const { input, rec } = readingFrom();
    input.end('{"ok":1}\n{not json\n[1,2]\n42\n"s"\nnull\n{"ok":2}\n');
    await rec.whenClosed;
    expect(rec.frames).toEqual([{ ok: 1 }, { ok: 2 }]);
    expect(rec.invalid.map((i) => i.line)).toEqual(["{not json", "[1,2]", "42", '"s"', "null"]);
    expect(rec.invalid[0]?.message).toMatch(/malformed JSON/);
    expect(rec.invalid.slice(1).map((i) => i.message)).toEqual([
      "expected a JSON object, got array",
      "expected a JSON object, got number",
      "expected a JSON object, got string",
      "expected a JSON object, got null",
    ]);
  });

  it("reports a line over the cap once and parses the following line", async () => {
    const { input, rec } = readingFrom({ maxLineBytes: 64 });
    input.write(`{"big":"${"x".repeat(100)}`);
    input.write(`${"x".repeat(100)}"}\n{"after":true}\n`);
    input.end();
    await rec.whenClosed;
    expect(rec.invalid).toHaveLength(1);
    expect(rec.invalid[0]?.message).toBe("line of 210 bytes exceeds the size cap");
    expect(rec.frames).toEqual([{ after: true }]);
  });

  it("stops delivering as soon as the listener closes the transport, even within one chunk", async () => {
    const input = new PassThrough();
    const transport = new StreamTransport(input, new PassThrough());
    const frames: unknown[] = [];
    const closed: TransportClosed[] = [];
    transport.start({
      frame: (frame) => {
        frames.push(frame);
        transport.close();
      },
      invalid: () => {},
      closed: (reason) => closed.push(reason),
    });
    input.write('{"n":1}\n{"n":2}\n{"n":3}\n');
    await tick();
    input.end();
    await tick();
    expect(frames).toEqual([{ n: 1 }]);
    expect(closed).toEqual([{ type: "local" }]);
  });

  it("reports closed once when the input errors", async () => {
    const { input, rec } = readingFrom();
    input.destroy(new Error("boom"));
    await rec.whenClosed;
    await tick();
    expect(rec.closed).toEqual([{ type: "eof" }]);
  });

  it("refuses a second start", () => {
    const { transport, rec } = readingFrom();
    expect(() => transport.start(rec.listener)).toThrow(/twice/);
  });
});

describe("StreamTransport writing", () => {
  it("writes one JSON object per line, exactly as given (no jsonrpc member added)", async () => {
    const [a, b] = createInMemoryTransportPair();
    const rec = recorder();
    b.transport.start(rec.listener);
    a.transport.start(recorder().listener);
    expect(a.transport.send({ id: 1, method: "initialize", params: { x: "é" } })).toBe(true);
    expect(a.transport.send({ method: "initialized" })).toBe(true);
    a.transport.endOutput();
    await rec.whenClosed;
    expect(rec.frames).toEqual([
      { id: 1, method: "initialize", params: { x: "é" } },
      { method: "initialized" },
    ]);
    for (const frame of rec.frames) expect(frame).not.toHaveProperty("jsonrpc");
  });

  it("serializes each frame as a single line terminated by \\n", () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new StreamTransport(input, output);
    transport.start(recorder().listener);
    transport.send({ text: "line1\nline2", id: 7 });
    const written = String(output.read());
    expect(written).toBe('{"text":"line1\\nline2","id":7}\n');
    expect(written.indexOf("\n")).toBe(written.length - 1);
  });

  it("close() ends the peer's input, reports local once, and later sends return false without throwing", async () => {
    const { a, recA, recB } = startedPair();
    a.transport.close();
    expect(a.transport.isClosed).toBe(true);
    expect(recA.closed).toEqual([{ type: "local" }]);
    expect(await recB.whenClosed).toEqual({ type: "eof" });
    expect(a.transport.send({ method: "late" })).toBe(false);
    a.transport.close();
    a.transport.endOutput();
    expect(recA.closed).toHaveLength(1);
  });

  it("endOutput() lets the peer see EOF while this side keeps reading", async () => {
    const { a, b, recA, recB } = startedPair();
    a.transport.endOutput();
    expect(await recB.whenClosed).toEqual({ type: "eof" });
    expect(a.transport.send({ method: "after-end" })).toBe(false);
    b.writeRaw('{"still":"reading"}\n');
    await tick();
    expect(recA.frames).toEqual([{ still: "reading" }]);
    expect(recA.closed).toEqual([]);
  });

  it("a failing write (EPIPE) never throws: it reports write-error once and later sends return false", async () => {
    const output = new Writable({
      write(_chunk, _enc, callback) {
        const error = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
        callback(error);
      },
    });
    const transport = new StreamTransport(new PassThrough(), output);
    const rec = recorder();
    transport.start(rec.listener);
    expect(() => transport.send({ id: 1, method: "x" })).not.toThrow();
    expect(await rec.whenClosed).toEqual({ type: "write-error", message: "write EPIPE" });
    expect(transport.send({ id: 2, method: "y" })).toBe(false);
    await tick();
    expect(rec.closed).toHaveLength(1);
  });

  it("an unserializable frame is refused without throwing, and the transport stays open", () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new StreamTransport(input, output);
    const rec = recorder();
    transport.start(rec.listener);
    expect(() => transport.send({ n: 1n })).not.toThrow();
    expect(transport.send({ n: 1n })).toBe(false);
    expect(transport.isClosed).toBe(false);
    expect(rec.closed).toEqual([]);
    expect(output.read()).toBeNull();
    expect(transport.send({ ok: true })).toBe(true);
    expect(String(output.read())).toBe('{"ok":true}\n');
  });

  it("a destroyed output makes send return false without throwing", () => {
    const output = new PassThrough();
    const transport = new StreamTransport(new PassThrough(), output);
    transport.start(recorder().listener);
    output.destroy();
    expect(() => transport.send({ method: "x" })).not.toThrow();
    expect(transport.send({ method: "x" })).toBe(false);
  });

  it("a late error on either stream after close is swallowed", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new StreamTransport(input, output);
    const rec = recorder();
    transport.start(rec.listener);
    transport.close();
    input.destroy(new Error("late input error"));
    output.destroy(new Error("late output error"));
    await tick();
    expect(rec.closed).toEqual([{ type: "local" }]);
  });
});

describe("StreamTransport pause/resume", () => {
  const lines = (from: number, to: number): string =>
    Array.from({ length: to - from }, (_, i) => `{"n":${from + i}}\n`).join("");
  /** A started transport whose listener records each frame's `n` and pauses after the frames numbered `pauseAt`. */
  const pausing = (pauseAt: readonly number[]) => {
    const input = new PassThrough();
    const transport = new StreamTransport(input, new PassThrough());
    const seen: number[] = [];
    transport.start({
      frame: (frame) => {
        seen.push(frame.n as number);
        if (pauseAt.includes(frame.n as number)) transport.pause();
      },
      invalid: () => {},
      closed: () => {},
    });
    return { input, transport, seen };
  };

  it("holds the rest of a chunk from the frame that paused, and delivers it in order on resume", async () => {
    const { input, transport, seen } = pausing([2]);
    input.write(lines(0, 6));
    await tick();
    expect(seen).toEqual([0, 1, 2]);
    input.write(lines(6, 8)); // written while paused: stays unread
    await tick();
    expect(seen).toEqual([0, 1, 2]);
    transport.resume();
    await tick();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("queues a chunk the input had already read when paused behind the frames still held", async () => {
    const { input, transport, seen } = pausing([1]);
    input.write(lines(0, 4));
    await tick();
    expect(seen).toEqual([0, 1]);
    input.emit("data", Buffer.from(lines(4, 6))); // read before the pause reached the stream
    expect(seen).toEqual([0, 1]);
    transport.resume();
    await tick();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("stops again when a held frame pauses, and goes on from there", async () => {
    const { input, transport, seen } = pausing([1, 3]);
    input.write(lines(0, 5));
    await tick();
    expect(seen).toEqual([0, 1]);
    transport.resume();
    expect(seen).toEqual([0, 1, 2, 3]);
    transport.resume();
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it("delivers every held frame before eof when the input closes while paused, even if a frame asks to pause", async () => {
    const input = new PassThrough();
    const transport = new StreamTransport(input, new PassThrough());
    const rec = recorder();
    transport.start({ ...rec.listener, frame: (frame) => (rec.frames.push(frame), transport.pause()) });
    input.write(lines(0, 3));
    await tick();
    expect(rec.frames).toHaveLength(1);
    input.destroy(); // the pipe went away (the child died): nothing more will come
    expect(await rec.whenClosed).toEqual({ type: "eof" });
    expect(rec.frames.map((f) => f.n)).toEqual([0, 1, 2]);
  });

  it("drains a paused input after close(), so the writer is not left blocked", async () => {
    const input = new PassThrough({ highWaterMark: 16 });
    const transport = new StreamTransport(input, new PassThrough());
    const rec = recorder();
    transport.start(rec.listener);
    transport.pause();
    for (let i = 0; i < 20; i++) input.write(lines(i, i + 1));
    await tick();
    expect(rec.frames).toEqual([]);
    expect(input.writableNeedDrain).toBe(true);
    transport.close();
    await tick();
    expect(input.writableNeedDrain).toBe(false);
    expect(rec.frames).toEqual([]);
    expect(rec.closed).toEqual([{ type: "local" }]);
  });
});
