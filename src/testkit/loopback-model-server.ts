import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { ModelScenario, RecordedRequest, ResponsePlan } from "./model-response-plan.js";
import { text } from "./model-scenarios.js";
import { RennetError } from "../errors.js";
import { encodeServerSentEvent, openAiErrorBody } from "./responses-stream-events.js";
import {
  decodeBody,
  errorMessage,
  flattenHeaders,
  parseJson,
  pathOnly,
  pause,
  readBody,
  sendJson,
} from "./http-recording.js";

/** Options of {@link startLoopbackModelServer}. */
export interface LoopbackModelServerOptions {
  /** Answers each `POST /v1/responses`. Default: `text("ok")`. */
  scenario?: ModelScenario;
  /** Largest request body accepted, in bytes (413 beyond). Default 64 MiB. */
  maxBodyBytes?: number;
}

/** A running stand-in for the OpenAI Responses API on 127.0.0.1. */
export interface LoopbackModelServer {
  /** Base URL for a model provider, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  readonly port: number;
  /** Every request received (any method and path), in arrival order. Live: grows as requests arrive. */
  readonly requests: readonly RecordedRequest[];
  /** Only the `POST /v1/responses` requests, in order. */
  responsesRequests(): RecordedRequest[];
  /** Installs a scenario for the following requests; its `scenarioIndex` starts again at 0. */
  setScenario(scenario: ModelScenario): void;
  /**
   * Resolves once `count` `POST /v1/responses` requests have arrived. Rejects with {@link LoopbackModelServerClosedError}
   * if the server closes first, or with `signal.reason` on abort.
   */
  waitForResponsesRequests(count: number, options?: { signal?: AbortSignal }): Promise<RecordedRequest[]>;
  /** Stops listening, ends every open stream (hanging ones included) and destroys every socket. Idempotent. */
  close(): Promise<void>;
}

/** The server closed before the awaited requests arrived. */
export class LoopbackModelServerClosedError extends RennetError<"LOOPBACK_MODEL_CLOSED"> {
  override readonly name = "LoopbackModelServerClosedError";
  constructor(awaited: number, received: number) {
    super(
      "LOOPBACK_MODEL_CLOSED",
      `loopback model server closed after ${received} of ${awaited} awaited POST /v1/responses requests; ` +
        "check that codex points at this server (CODEX_HOME config base_url) and that the turn was started",
      { details: { awaited, received } },
    );
  }
}

const RESPONSES_PATH = "/v1/responses";

/** Starts the server on 127.0.0.1 with an OS-assigned port. */
export async function startLoopbackModelServer(
  options: LoopbackModelServerOptions = {},
): Promise<LoopbackModelServer> {
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024 * 1024;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const shutdown = new AbortController();
  const waiters = new Set<{ count: number; resolve: () => void; reject: (error: unknown) => void }>();
  let scenario: ModelScenario = options.scenario ?? text("ok");
  let scenarioIndex = 0;
  let closing: Promise<void> | null = null;

  const responsesRequests = (): RecordedRequest[] =>
    requests.filter((request) => request.method === "POST" && pathOnly(request.path) === RESPONSES_PATH);

  const notifyWaiters = (): void => {
    const received = responsesRequests().length;
    for (const waiter of waiters) {
      if (received >= waiter.count) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw: Buffer;
    try {
      raw = await readBody(req, maxBodyBytes);
    } catch (error) {
      sendJson(res, 413, openAiErrorBody(`loopback model: ${errorMessage(error)}`, "invalid_request_error"));
      return;
    }
    const rawBody = decodeBody(raw, req.headers["content-encoding"]);
    const recorded: RecordedRequest = {
      index: requests.length,
      method: req.method ?? "",
      path: req.url ?? "",
      headers: flattenHeaders(req),
      body: parseJson(rawBody),
      rawBody,
    };
    requests.push(recorded);
    if (recorded.method !== "POST" || pathOnly(recorded.path) !== RESPONSES_PATH) {
      sendJson(
        res,
        404,
        openAiErrorBody(
          `loopback model: no route for ${recorded.method} ${recorded.path}`,
          "invalid_request_error",
        ),
      );
      return;
    }
    const index = scenarioIndex++;
    notifyWaiters();
    let plan: ResponsePlan;
    try {
      plan = scenario(recorded, index);
    } catch (error) {
      plan = {
        type: "http-error",
        status: 500,
        body: openAiErrorBody(`loopback model: scenario threw: ${errorMessage(error)}`),
      };
    }
    await answer(res, plan);
  }

  async function answer(res: ServerResponse, plan: ResponsePlan): Promise<void> {
    if (plan.type === "http-error") {
      sendJson(res, plan.status, plan.body);
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const delayMs = plan.delayMs ?? 0;
    for (const [position, event] of plan.events.entries()) {
      if (position > 0 && delayMs > 0 && !(await pause(delayMs, shutdown.signal))) return;
      if (res.destroyed || shutdown.signal.aborted) return;
      res.write(encodeServerSentEvent(event));
    }
    if (plan.end === "close") res.end();
    // "hang": leave the response open; close() destroys the socket.
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new RennetError("INTERNAL_ERROR", "loopback model server: no TCP address");
  const port = address.port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    responsesRequests,
    setScenario(next) {
      scenario = next;
      scenarioIndex = 0;
    },
    waitForResponsesRequests(count, waitOptions = {}) {
      const signal = waitOptions.signal;
      return new Promise<RecordedRequest[]>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        if (responsesRequests().length >= count) {
          resolve(responsesRequests());
          return;
        }
        if (closing !== null) {
          reject(new LoopbackModelServerClosedError(count, responsesRequests().length));
          return;
        }
        const onAbort = (): void => {
          waiters.delete(waiter);
          reject(signal?.reason);
        };
        const waiter = {
          count,
          resolve: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve(responsesRequests());
          },
          reject: (error: unknown) => {
            signal?.removeEventListener("abort", onAbort);
            reject(error);
          },
        };
        waiters.add(waiter);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    close() {
      if (closing !== null) return closing;
      shutdown.abort();
      for (const waiter of waiters)
        waiter.reject(new LoopbackModelServerClosedError(waiter.count, responsesRequests().length));
      waiters.clear();
      closing = new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
