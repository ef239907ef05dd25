/**
 * The fake app-server's byte-level controls: frames written in one chunk (with the response to a request),
 * chunks cut anywhere, invalid UTF-8, padded lines, duplicate response ids and an exit instead of a reply.
 * Each write of the fake is observed as one `data` chunk on the client's side.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { JsonRpcConnection } from "../../src/jsonl/json-rpc-connection.js";
import { StreamTransport } from "../../src/jsonl/stream-transport.js";
import { FakePeer } from "../../src/testkit/fake-peer.js";
import { fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";

/** A fake peer on raw pipes: `chunks` are the fake's writes as the client reads them; `conn` is the client. */
function wire(script: FakeScript) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const chunks: Buffer[] = [];
  toClient.on("data", (chunk: Buffer) => chunks.push(chunk));
  const log: string[] = [];
  const exits: { code: number | null; signal: string | null }[] = [];
  new FakePeer(new StreamTransport(toServer, toClient), script, {
    writeRaw: (text) => toClient.write(text),
    writeBytes: (bytes) => toClient.write(bytes),
    closeStdout: () => toClient.end(),
    exit: (code, signal, { stdout }) => {
      exits.push({ code, signal });
      if (stdout !== "keep-open") toClient.end();
    },
  });
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const conn = new JsonRpcConnection(new StreamTransport(toClient, toServer), {
    notification: (f) => log.push(`notification ${f.method} ${JSON.stringify(f.params)}`),
    request: (f) => log.push(`request ${String(f.id)} ${f.method}`),
    stray: (f, why) => log.push(`stray ${why} ${JSON.stringify(f)}`),
    invalid: (message) => log.push(`invalid ${message}`),
    closed: () => resolveClosed(),
  });
  return { conn, chunks, log, exits, closed };
}

const texts = (chunks: Buffer[]) => chunks.map((c) => c.toString("utf8"));

describe("FakeScript.alongReply", () => {
  it("writes the response and the given frames in one chunk, before the turn's steps", async () => {
    const { conn, chunks, log } = wire({
      alongReply: {
        "turn/start": { parts: [fakeSteps.turnCompleted("completed"), { raw: '{"method":"x"}\n' }] },
      },
      turn: [fakeSteps.notify("after", {})],
    });
    const ack = await conn.request("turn/start", {});
    expect(ack).toMatchObject({ turn: { id: "turn_fake_0001" } });
    expect(texts(chunks)[0]).toBe(
      `${JSON.stringify({ id: 1, result: ack })}\n` +
        `${JSON.stringify((fakeSteps.turnCompleted("completed") as { send: unknown }).send)}\n` +
        '{"method":"x"}\n',
    );
    expect(chunks).toHaveLength(2);
    expect(log.map((l) => l.split(" ")[1])).toEqual(["turn/completed", "x", "after"]);
    conn.close();
  });

  it("writes an error response with the frames behind it too", async () => {
    const { conn, chunks } = wire({
      replies: { "turn/start": { error: { code: -32600, message: "no" } } },
      alongReply: { "turn/start": { parts: [{ raw: '{"method":"y"}\n' }] } },
    });
    await expect(conn.request("turn/start", {})).rejects.toMatchObject({ rpcCode: -32600 });
    expect(texts(chunks)).toEqual(['{"id":1,"error":{"code":-32600,"message":"no"}}\n{"method":"y"}\n']);
    conn.close();
  });

  it("cuts the response's chunk at byte offsets counted from the start of the response", async () => {
    const { conn, chunks } = wire({
      replies: { "turn/start": { result: { ok: 1 } } },
      alongReply: { "turn/start": { parts: [{ raw: '{"method":"z"}\n' }], cuts: [5, 26, 9999] } },
    });
    await conn.request("turn/start", {});
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(texts(chunks)).toEqual(['{"id"', ':1,"result":{"ok":1}}', '\n{"method":"z"}\n']);
    conn.close();
  });
});

describe("chunk steps", () => {
  it("cuts anywhere, inside a multi-byte character too, and the client reassembles the frames", async () => {
    const frame = { method: "item/agentMessage/delta", params: { delta: "héllo 😀" } };
    const bytes = Buffer.from(`${JSON.stringify(frame)}\n`);
    const inEmoji = bytes.indexOf(Buffer.from("😀")) + 2;
    const { conn, chunks, log, closed } = wire({
      replies: { "turn/start": { result: {} } },
      turn: [fakeSteps.chunk([{ send: frame }], [inEmoji, 3]), { exit: { code: 0 } }],
    });
    await conn.request("turn/start", {});
    await closed;
    expect(chunks.slice(1).map((c) => c.length)).toEqual([3, inEmoji - 3, bytes.length - inEmoji]);
    expect(log).toEqual([`notification item/agentMessage/delta ${JSON.stringify(frame.params)}`]);
  });

  it("holds a reply served meanwhile, and other steps, until a cut chunk is written whole", async () => {
    const { conn, chunks, log } = wire({
      replies: { "turn/start": { result: {} } },
      turn: [fakeSteps.chunk([{ raw: '{"method":"a"}\n{"method":"b"}\n' }], [5, 20])],
      onInterrupt: [{ raw: '{"method":"after-interrupt"}\n' }],
    });
    await conn.request("turn/start", {});
    // the chunk's first piece is out; the interrupt is answered while the rest is pending
    await conn.request("turn/interrupt", {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(texts(chunks).slice(1)).toEqual([
      '{"met',
      'hod":"a"}\n{"met',
      'hod":"b"}\n',
      '{"id":2,"result":{}}\n',
      '{"method":"after-interrupt"}\n',
    ]);
    expect(log).toEqual([
      "notification a undefined",
      "notification b undefined",
      "notification after-interrupt undefined",
    ]);
    conn.close();
  });

  it("writes invalid UTF-8 as is; inside a JSON string it decodes to U+FFFD", async () => {
    const bad = Buffer.concat([
      Buffer.from('{"method":"d","params":{"delta":"a'),
      Buffer.from([0xff, 0xe2, 0x82]),
      Buffer.from('b"}}\n'),
    ]);
    const { conn, log, closed } = wire({
      replies: { "turn/start": { result: {} } },
      turn: [fakeSteps.chunk([{ rawBase64: bad.toString("base64") }], [34, 35]), { exit: { code: 0 } }],
    });
    await conn.request("turn/start", {});
    await closed;
    expect(log).toEqual(['notification d {"delta":"a\ufffd\ufffdb"}']);
  });

  it("pads a line to an exact byte length", async () => {
    const { conn, chunks, log, closed } = wire({
      replies: { "turn/start": { result: {} } },
      turn: [fakeSteps.chunk([{ paddedFrame: 100 }, { paddedFrame: 1 }]), { exit: { code: 0 } }],
    });
    await conn.request("turn/start", {});
    await closed;
    const lines = texts(chunks)[1]?.split("\n") ?? [];
    expect(lines.map((l) => Buffer.byteLength(l))).toEqual([100, 52, 0]);
    expect(log.map((l) => l.split(" ")[1])).toEqual(["rennet/fake/padding", "rennet/fake/padding"]);
  });

  it("answers the latest request of a method a second time (a duplicate response id)", async () => {
    const { conn, log, closed } = wire({
      turn: [fakeSteps.chunk([{ duplicateResponse: "turn/start" }, { duplicateResponse: "never" }])],
      onStdinEnd: "exit",
    });
    await conn.request("initialize", {});
    await conn.request("turn/start", {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['stray unmatched-response {"id":2,"result":{"duplicate":true}}']);
    conn.endOutput();
    await closed;
  });

  it("builds a frame nested to an exact depth, as a notification or a server request", () => {
    expect(fakeSteps.nested(4)).toEqual({
      raw: '{"method":"item/agentMessage/delta","params":{"v":[[]]}}\n',
    });
    expect(fakeSteps.nested(3, { id: 9, method: "item/tool/call" })).toEqual({
      raw: '{"id":9,"method":"item/tool/call","params":{"v":[]}}\n',
    });
  });
});

describe("FakeReply exit", () => {
  it("exits instead of answering: the request is never answered and stdout closes", async () => {
    const { conn, exits, closed } = wire({ replies: { "thread/start": { exit: { code: 3 } } } });
    const error = await conn.request("thread/start", {}).catch((e: Error) => e.name);
    await closed;
    expect(error).toBe("ConnectionClosedError");
    expect(exits).toEqual([{ code: 3, signal: null }]);
  });
});

describe("InMemoryAppServer framing options", () => {
  it("applies the given caps to the client's framing", async () => {
    const fake = new InMemoryAppServer(
      { replies: { "turn/start": { result: {} } }, turn: [fakeSteps.chunk([{ paddedFrame: 200 }])] },
      { maxLineBytes: 100 },
    );
    const proc = fake.launcher({ command: "codex", args: ["app-server"] });
    const invalid: string[] = [];
    const conn = new JsonRpcConnection(proc.transport, {
      notification: () => {},
      request: () => {},
      stray: () => {},
      invalid: (message) => invalid.push(message),
      closed: () => {},
    });
    await conn.request("turn/start", {});
    expect(invalid).toEqual(["line of 200 bytes exceeds the size cap"]);
    await proc.terminate();
  });
});
