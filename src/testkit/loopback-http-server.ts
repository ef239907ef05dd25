import { setMaxListeners } from "node:events";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { RennetError } from "../errors.js";
import { invalidTestkitOption } from "./loopback-env.js";
import {
  decodeBody,
  errorMessage,
  flattenHeaders,
  parseJson,
  pause,
  readBody,
  sendJson,
} from "./http-recording.js";
import type { RecordedRequest } from "./model-response-plan.js";

/** How a loopback API answers: a 413 body in its own error shape, and every recorded request. */
export interface LoopbackApi {
  /** Names the server in errors, e.g. "loopback model". */
  readonly name: string;
  /** The JSON body of a 413 answer (a request body over the limit). */
  tooLarge(message: string): unknown;
  /** Answers a request that was read and recorded. */
  answer(request: RecordedRequest, res: ServerResponse): Promise<void>;
}

/** One planned event stream: the events in order, a pause between them, and whether the stream ends. */
export interface PlannedEventStream<E> {
  events: readonly E[];
  delayMs?: number;
  end: "close" | "hang";
}

/**
 * The HTTP part every loopback model server shares: listens on 127.0.0.1 (an OS-assigned port), reads and records
 * every request (bodies decoded; the body as sent and as decoded each up to `maxBodyBytes`), hands it to its {@link LoopbackApi}, streams planned
 * server-sent events, and on `close` ends every open stream (hanging ones included) and destroys every socket.
 */
export class LoopbackHttpServer {
  /** Every request received (any method and path), in arrival order. Live. */
  readonly requests: RecordedRequest[] = [];
  readonly #api: LoopbackApi;
  readonly #maxBodyBytes: number;
  readonly #sockets = new Set<Socket>();
  readonly #shutdown = new AbortController();
  readonly #http = createServer((req, res) => {
    this.#handle(req, res).catch(() => res.destroy());
  });
  #port = 0;
  #closing: Promise<void> | null = null;

  /** Throws `TESTKIT_OPTIONS_INVALID` unless `maxBodyBytes` is a positive whole number. */
  constructor(api: LoopbackApi, maxBodyBytes = 64 * 1024 * 1024) {
    if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1)
      throw invalidTestkitOption(
        `${api.name} server`,
        "maxBodyBytes",
        `must be a positive whole number of bytes, got ${typeof maxBodyBytes === "string" ? JSON.stringify(maxBodyBytes) : String(maxBodyBytes)}`,
      );
    this.#api = api;
    this.#maxBodyBytes = maxBodyBytes;
    // every stream waiting between delayed events listens for the shutdown: any number may run at once
    setMaxListeners(0, this.#shutdown.signal);
    this.#http.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  get port(): number {
    return this.#port;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#http.once("error", reject);
      this.#http.listen(0, "127.0.0.1", () => {
        this.#http.off("error", reject);
        resolve();
      });
    });
    const address = this.#http.address();
    if (address === null || typeof address === "string")
      throw new RennetError("INTERNAL_ERROR", `${this.#api.name} server: no TCP address`);
    this.#port = address.port;
  }

  /** Idempotent. */
  close(): Promise<void> {
    if (this.#closing !== null) return this.#closing;
    this.#shutdown.abort();
    this.#closing = new Promise<void>((resolve) => {
      this.#http.close(() => resolve());
      this.#http.closeAllConnections();
      for (const socket of this.#sockets) socket.destroy();
    });
    return this.#closing;
  }

  /** Writes `stream` as server-sent events; stops early when the client went away or the server closes. */
  async streamEvents<E>(
    res: ServerResponse,
    stream: PlannedEventStream<E>,
    encode: (event: E) => string,
  ): Promise<void> {
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const delayMs = stream.delayMs ?? 0;
    const signal = this.#shutdown.signal;
    for (const [position, event] of stream.events.entries()) {
      if (position > 0 && delayMs > 0 && !(await pause(delayMs, signal))) return;
      if (res.destroyed || signal.aborted) return;
      res.write(encode(event));
    }
    if (stream.end === "close") res.end();
    // "hang": leave the response open; close() destroys the socket.
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let rawBody: string;
    try {
      const raw = await readBody(req, this.#maxBodyBytes);
      rawBody = decodeBody(raw, req.headers["content-encoding"], this.#maxBodyBytes);
    } catch (error) {
      sendJson(res, 413, this.#api.tooLarge(`${this.#api.name}: ${errorMessage(error)}`));
      return;
    }
    const recorded: RecordedRequest = {
      index: this.requests.length,
      method: req.method ?? "",
      path: req.url ?? "",
      headers: flattenHeaders(req),
      body: parseJson(rawBody),
      rawBody,
    };
    this.requests.push(recorded);
    await this.#api.answer(recorded, res);
  }
}
