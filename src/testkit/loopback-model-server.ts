import type { ServerResponse } from "node:http";
import type { ModelScenario, RecordedRequest, ResponsePlan } from "./model-response-plan.js";
import { text } from "./model-scenarios.js";
import { RennetError } from "../errors.js";
import { CountWaiters } from "./count-waiters.js";
import { encodeServerSentEvent, openAiErrorBody } from "./responses-stream-events.js";
import { errorMessage, pathOnly, sendJson } from "./http-recording.js";
import { LoopbackHttpServer } from "./loopback-http-server.js";

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

/**
 * Starts the server on 127.0.0.1 with an OS-assigned port. It answers `POST /v1/responses` (with or without a
 * query) from the scenario and anything else 404 in the OpenAI error shape; it records every request.
 */
export async function startLoopbackModelServer(
  options: LoopbackModelServerOptions = {},
): Promise<LoopbackModelServer> {
  const server = new ModelServer(options);
  await server.listen();
  return server;
}

class ModelServer implements LoopbackModelServer {
  readonly #http: LoopbackHttpServer;
  readonly #waiters = new CountWaiters(
    () => this.responsesRequests().length,
    () => this.responsesRequests(),
  );
  #scenario: ModelScenario;
  #scenarioIndex = 0;

  constructor(options: LoopbackModelServerOptions) {
    this.#scenario = options.scenario ?? text("ok");
    this.#http = new LoopbackHttpServer(
      {
        name: "loopback model",
        tooLarge: (message) => openAiErrorBody(message, "invalid_request_error"),
        answer: (request, res) => this.#answer(request, res),
      },
      options.maxBodyBytes,
    );
  }

  get url(): string {
    return `http://127.0.0.1:${this.#http.port}/v1`;
  }
  get port(): number {
    return this.#http.port;
  }
  get requests(): readonly RecordedRequest[] {
    return this.#http.requests;
  }

  listen(): Promise<void> {
    return this.#http.listen();
  }

  responsesRequests(): RecordedRequest[] {
    return this.#http.requests.filter(
      (request) => request.method === "POST" && pathOnly(request.path) === RESPONSES_PATH,
    );
  }

  setScenario(next: ModelScenario): void {
    this.#scenario = next;
    this.#scenarioIndex = 0;
  }

  waitForResponsesRequests(
    count: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<RecordedRequest[]> {
    return this.#waiters.wait(count, options.signal);
  }

  close(): Promise<void> {
    this.#waiters.close(
      (awaited) => new LoopbackModelServerClosedError(awaited, this.responsesRequests().length),
    );
    return this.#http.close();
  }

  async #answer(request: RecordedRequest, res: ServerResponse): Promise<void> {
    if (request.method !== "POST" || pathOnly(request.path) !== RESPONSES_PATH) {
      const message = `loopback model: no route for ${request.method} ${request.path}`;
      sendJson(res, 404, openAiErrorBody(message, "invalid_request_error"));
      return;
    }
    const index = this.#scenarioIndex++;
    this.#waiters.notify();
    const plan = this.#plan(request, index);
    if (plan.type === "http-error") sendJson(res, plan.status, plan.body);
    else await this.#http.streamEvents(res, plan, encodeServerSentEvent);
  }

  #plan(request: RecordedRequest, index: number): ResponsePlan {
    try {
      return this.#scenario(request, index);
    } catch (error) {
      const body = openAiErrorBody(`loopback model: scenario threw: ${errorMessage(error)}`);
      return { type: "http-error", status: 500, body };
    }
  }
}
