import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectionClosedError, JsonRpcResponseError, RequestTimeoutError } from "../../src/jsonl/errors.js";
import { createInMemoryTransportPair, type InMemoryEnd } from "../../src/jsonl/in-memory-transport.js";
import { JsonRpcConnection, type ConnectionHandlers } from "../../src/jsonl/json-rpc-connection.js";
import type { TransportClosed } from "../../src/jsonl/transport.js";

interface Peer {
  end: InMemoryEnd;
  /** Every frame the client sent, in order. */
  received: Record<string, unknown>[];
  /** Resolves when the peer has received `n` frames in total. */
  receivedCount(n: number): Promise<void>;
}

interface Harness {
  conn: JsonRpcConnection;
  peer: Peer;
  notifications: { method: string; params: unknown }[];
  requests: { id: number | string; method: string }[];
  strays: { frame: Record<string, unknown>; why: string }[];
  invalid: { message: string; line: string }[];
  closed: TransportClosed[];
}

function setup(options: { maxLineBytes?: number } = {}): Harness {
  const [client, server] = createInMemoryTransportPair(options);
  const received: Record<string, unknown>[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  server.transport.start({
    frame: (frame) => {
      received.push(frame);
      for (const w of waiters.filter((w) => received.length >= w.n)) w.resolve();
    },
    invalid: () => {},
    closed: () => {},
  });
  const h: Harness = {
    peer: {
      end: server,
      received,
      receivedCount: (n) =>
        received.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    },
    notifications: [],
    requests: [],
    strays: [],
    invalid: [],
    closed: [],
    conn: undefined as unknown as JsonRpcConnection,
  };
  const handlers: ConnectionHandlers = {
    notification: (f) => h.notifications.push({ method: f.method, params: f.params }),
    request: (f) => h.requests.push({ id: f.id, method: f.method }),
    stray: (frame, why) => h.strays.push({ frame, why }),
    invalid: (message, line) => h.invalid.push({ message, line }),
    closed: (reason) => h.closed.push(reason),
  };
  h.conn = new JsonRpcConnection(client.transport, handlers);
  return h;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe("JsonRpcConnection sending", () => {
  it("sends requests with numeric, increasing ids starting at 1, and never a jsonrpc member", async () => {
    const { conn, peer } = setup();
    void conn.request("initialize", { clientInfo: { name: "rennet" } }).catch(() => {});
    conn.notify("initialized");
    void conn.request("thread/start", {}).catch(() => {});
    void conn.request("noParams", undefined).catch(() => {});
    conn.respond(0, { decision: "accept" });
    conn.respondError("s1", -32601, "nope");
    conn.respondError(2, -32000, "refused", { why: 1 });
    await peer.receivedCount(7);
    expect(peer.received).toEqual([
      { id: 1, method: "initialize", params: { clientInfo: { name: "rennet" } } },
      { method: "initialized" },
      { id: 2, method: "thread/start", params: {} },
      { id: 3, method: "noParams" },
      { id: 0, result: { decision: "accept" } },
      { id: "s1", error: { code: -32601, message: "nope" } },
      { id: 2, error: { code: -32000, message: "refused", data: { why: 1 } } },
    ]);
    for (const frame of peer.received) expect(frame).not.toHaveProperty("jsonrpc");
    conn.close();
  });
});

describe("JsonRpcConnection responses", () => {
  it("correlates responses that arrive out of order", async () => {
    const { conn, peer } = setup();
    const first = conn.request("a", {});
    const second = conn.request("b", {});
    const third = conn.request("c", {});
    await peer.receivedCount(3);
    peer.end.transport.send({ id: 3, result: "C" });
    peer.end.transport.send({ id: 1, result: "A" });
    peer.end.transport.send({ id: 2, result: "B" });
    await expect(Promise.all([first, second, third])).resolves.toEqual(["A", "B", "C"]);
    expect(conn.pendingCount).toBe(0);
    conn.close();
  });

  it("rejects a request answered with an error, keeping method, code, message and data", async () => {
    const { conn, peer } = setup();
    const pending = conn.request("thread/start", {});
    await peer.receivedCount(1);
    peer.end.transport.send({
      id: 1,
      error: { code: -32600, message: "Invalid request: bad sandbox", data: { f: 1 } },
    });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcResponseError);
    expect(error).toMatchObject({
      code: "JSONRPC_ERROR",
      method: "thread/start",
      rpcCode: -32600,
      rpcMessage: "Invalid request: bad sandbox",
      data: { f: 1 },
    });
    expect((error as Error).message).toContain("-32600");
    conn.close();
  });

  it("reports a response to an id it never sent as stray, and a second response to the same id too", async () => {
    const { conn, peer, strays } = setup();
    const pending = conn.request("a", {});
    await peer.receivedCount(1);
    peer.end.transport.send({ id: 99, result: {} });
    peer.end.transport.send({ id: 1, result: "ok" });
    peer.end.transport.send({ id: 1, result: "again" });
    peer.end.transport.send({ id: 42, error: { code: 1, message: "x" } });
    peer.end.transport.send({ id: "1", result: "string id" });
    await expect(pending).resolves.toBe("ok");
    await tick();
    expect(strays.map((s) => [s.frame.id, s.why])).toEqual([
      [99, "unmatched-response"],
      [1, "unmatched-response"],
      [42, "unmatched-response"],
      ["1", "unmatched-response"],
    ]);
    conn.close();
  });

  it("reports a frame of no known shape as stray unknown-shape", async () => {
    const { conn, peer, strays } = setup();
    peer.end.writeRaw('{"hello":"world"}\n');
    await tick();
    expect(strays).toEqual([{ frame: { hello: "world" }, why: "unknown-shape" }]);
    conn.close();
  });
});

describe("JsonRpcConnection routing", () => {
  it("routes notifications and server requests to their handlers", async () => {
    const { conn, peer, notifications, requests } = setup();
    peer.end.transport.send({ method: "turn/started", params: { turn: { id: "t" } } });
    peer.end.transport.send({ id: 0, method: "item/commandExecution/requestApproval", params: {} });
    await tick();
    expect(notifications).toEqual([{ method: "turn/started", params: { turn: { id: "t" } } }]);
    expect(requests).toEqual([{ id: 0, method: "item/commandExecution/requestApproval" }]);
    conn.close();
  });

  it("reports invalid lines and keeps reading", async () => {
    const { conn, peer, invalid, notifications } = setup({ maxLineBytes: 32 });
    peer.end.writeRaw(`{oops\n[1]\n{"method":"${"x".repeat(64)}"}\n{"method":"after"}\n`);
    await tick();
    expect(invalid.map((i) => i.message)).toEqual([
      expect.stringMatching(/^malformed JSON/),
      "expected a JSON object, got array",
      expect.stringMatching(/exceeds the size cap/),
    ]);
    expect(notifications.map((n) => n.method)).toEqual(["after"]);
    conn.close();
  });
});

describe("JsonRpcConnection deadlines and close", () => {
  it("rejects with RequestTimeoutError when no response arrives in time, and forgets the id", async () => {
    const { conn, peer, strays } = setup();
    const error = await conn.request("initialize", {}, { timeoutMs: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ code: "REQUEST_TIMEOUT", method: "initialize", timeoutMs: 20 });
    expect(conn.pendingCount).toBe(0);
    // a late answer is now a stray, not a resolution
    peer.end.transport.send({ id: 1, result: {} });
    await tick();
    expect(strays.map((s) => s.frame.id)).toEqual([1]);
    conn.close();
  });

  it("clears the timer when the response arrives first", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { conn, peer } = setup();
    const pending = conn.request("a", {}, { timeoutMs: 1000 });
    expect(vi.getTimerCount()).toBe(1);
    await vi.waitFor(() => expect(peer.received).toHaveLength(1));
    peer.end.transport.send({ id: 1, result: "done" });
    await expect(pending).resolves.toBe("done");
    expect(vi.getTimerCount()).toBe(0);
    conn.close();
  });

  it("rejects every pending request when the peer closes, clears their timers, and reports closed once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { conn, peer, closed } = setup();
    const a = conn.request("a", {}, { timeoutMs: 5000 }).catch((e: unknown) => e);
    const b = conn.request("b", {}).catch((e: unknown) => e);
    expect(vi.getTimerCount()).toBe(1);
    peer.end.endRaw();
    const [ea, eb] = await Promise.all([a, b]);
    expect(ea).toBeInstanceOf(ConnectionClosedError);
    expect(ea).toMatchObject({ code: "CONNECTION_CLOSED", method: "a", reason: "eof" });
    expect(eb).toMatchObject({ code: "CONNECTION_CLOSED", method: "b", reason: "eof" });
    expect(conn.pendingCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(closed).toEqual([{ type: "eof" }]);
    expect(conn.closedReason).toEqual({ type: "eof" });
  });

  it("rejects pending requests on a local close too", async () => {
    const { conn, closed } = setup();
    const pending = conn.request("a", {}).catch((e: unknown) => e);
    conn.close();
    expect(await pending).toMatchObject({ code: "CONNECTION_CLOSED", reason: "local" });
    expect(closed).toEqual([{ type: "local" }]);
  });

  it("rejects a request made after close at once, and notify/respond return false without throwing", async () => {
    const { conn } = setup();
    conn.close();
    await expect(conn.request("late", {})).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(conn.notify("initialized")).toBe(false);
    expect(conn.respond(0, {})).toBe(false);
    expect(conn.respondError(0, -32601, "x")).toBe(false);
  });

  it("rejects a request whose params cannot be serialized, keeps nothing pending and leaves the connection usable", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { conn, peer } = setup();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(conn.request("bad", { n: 1n }, { timeoutMs: 1000 })).rejects.toMatchObject({
      code: "INTERNAL_ERROR",
      cause: expect.any(TypeError),
    });
    await expect(conn.request("bad", cyclic, { timeoutMs: 1000 })).rejects.toMatchObject({
      code: "INTERNAL_ERROR",
      cause: expect.any(TypeError),
    });
    expect(conn.pendingCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(() => conn.notify("bad", { n: 1n })).not.toThrow();
    expect(conn.notify("bad", { n: 1n })).toBe(false);
    const good = conn.request("good", {});
    await vi.waitFor(() => expect(peer.received.map((f) => f.method)).toEqual(["good"]));
    peer.end.transport.send({ id: peer.received[0]?.id, result: "ok" });
    await expect(good).resolves.toBe("ok");
    conn.close();
  });

  it("rejects a request whose write is refused (output already ended) and keeps nothing pending", async () => {
    const { conn } = setup();
    conn.endOutput();
    const error = await conn.request("a", {}, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONNECTION_CLOSED", reason: "not writable" });
    expect(conn.pendingCount).toBe(0);
    conn.close();
  });
});
