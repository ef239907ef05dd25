import { describe, expect, it } from "vitest";
import { JsonRpcResponseError } from "../../src/jsonl/errors.js";
import { createInMemoryTransportPair } from "../../src/jsonl/in-memory-transport.js";
import { JsonRpcConnection } from "../../src/jsonl/json-rpc-connection.js";

/** A connection whose peer is driven by raw writes; `log` records the order in which things happen. */
function setup() {
  const [client, server] = createInMemoryTransportPair();
  const log: string[] = [];
  const received: Record<string, unknown>[] = [];
  server.transport.start({ frame: (f) => received.push(f), invalid: () => {}, closed: () => {} });
  const conn = new JsonRpcConnection(client.transport, {
    notification: (f) => log.push(`notification ${f.method}`),
    request: (f) => log.push(`request ${f.method}`),
    stray: (f) => log.push(`stray ${String(f.id)}`),
    invalid: (message) => log.push(`invalid ${message}`),
    closed: () => log.push("closed"),
  });
  return { conn, server, log, received };
}

describe("JsonRpcConnection onResult / onError (acting on a response before the frames behind it)", () => {
  it("calls onResult while routing, before a notification written in the same chunk is dispatched", async () => {
    const { conn, server, log } = setup();
    const pending = conn.request(
      "turn/start",
      {},
      { onResult: (r) => log.push(`onResult ${JSON.stringify(r)}`) },
    );
    void pending.then(() => log.push("promise resolved"));
    // one write: the response and a notification right behind it
    server.writeRaw('{"id":1,"result":{"turn":{"id":"t1"}}}\n{"method":"turn/completed","params":{}}\n');
    await expect(pending).resolves.toEqual({ turn: { id: "t1" } });
    expect(log).toEqual([
      'onResult {"turn":{"id":"t1"}}',
      "notification turn/completed",
      // the promise continuation runs only after the whole chunk was dispatched: why the hook exists
      "promise resolved",
    ]);
    conn.close();
  });

  it("calls onError while routing an error response, before the frames behind it, then rejects with that error", async () => {
    const { conn, server, log } = setup();
    let seen: JsonRpcResponseError | undefined;
    const pending = conn.request(
      "turn/start",
      {},
      {
        onResult: () => log.push("onResult"),
        onError: (error) => {
          seen = error;
          log.push(`onError ${error.rpcCode}`);
        },
      },
    );
    server.writeRaw(
      '{"id":1,"error":{"code":-32600,"message":"bad"}}\n{"id":"s1","method":"item/tool/call","params":{}}\n',
    );
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcResponseError);
    expect(error).toBe(seen);
    expect(error).toMatchObject({ method: "turn/start", rpcCode: -32600, rpcMessage: "bad" });
    expect(log).toEqual(["onError -32600", "request item/tool/call"]);
    conn.close();
  });

  it("rejects with what onResult threw instead of resolving", async () => {
    const { conn, server } = setup();
    const boom = new Error("no thread id");
    const pending = conn.request(
      "thread/start",
      {},
      {
        onResult: () => {
          throw boom;
        },
      },
    );
    server.writeRaw('{"id":1,"result":{}}\n');
    await expect(pending).rejects.toBe(boom);
    expect(conn.pendingCount).toBe(0);
    conn.close();
  });

  it("rejects with what onError threw instead of the response error", async () => {
    const { conn, server } = setup();
    const boom = new Error("handled");
    const pending = conn.request(
      "thread/start",
      {},
      {
        onError: () => {
          throw boom;
        },
      },
    );
    server.writeRaw('{"id":1,"error":{"code":1,"message":"x"}}\n');
    await expect(pending).rejects.toBe(boom);
    conn.close();
  });

  it("calls neither hook for a stray response, a timeout or a close", async () => {
    const { conn, server, log } = setup();
    const calls: string[] = [];
    const hooks = { onResult: () => calls.push("onResult"), onError: () => calls.push("onError") };
    const timedOut = conn.request("a", {}, { ...hooks, timeoutMs: 1 }).catch((e: Error) => e.name);
    expect(await timedOut).toBe("RequestTimeoutError");
    server.writeRaw('{"id":1,"result":"late"}\n');
    const closed = conn.request("b", {}, hooks).catch((e: Error) => e.name);
    server.endRaw();
    expect(await closed).toBe("ConnectionClosedError");
    expect(calls).toEqual([]);
    expect(log).toEqual(["stray 1", "closed"]);
  });
});
