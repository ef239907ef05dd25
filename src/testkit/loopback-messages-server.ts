import type { ServerResponse } from "node:http";
import { RennetError } from "../errors.js";
import { asRecord } from "../json-record.js";
import { CountWaiters } from "./count-waiters.js";
import { errorMessage, pathOnly, sendJson } from "./http-recording.js";
import { LoopbackHttpServer } from "./loopback-http-server.js";
import type { RecordedRequest } from "./model-response-plan.js";
import type { MessagesPlan, MessagesScenario } from "./messages-response-plan.js";
import { text } from "./messages-scenarios.js";
import { anthropicErrorBody, messageOfEvents } from "./messages-stream-events.js";
import { encodeServerSentEvent } from "./responses-stream-events.js";

/** Options of {@link startLoopbackMessagesServer}. */
export interface LoopbackMessagesServerOptions {
  /** Answers each `POST /v1/messages`. Default: `text("ok")`. */
  scenario?: MessagesScenario;
  /** Largest request body accepted, in bytes (413 beyond). Default 64 MiB. */
  maxBodyBytes?: number;
}

/** A running stand-in for the Anthropic Messages API on 127.0.0.1. */
export interface LoopbackMessagesServer {
  /** Base URL for `ANTHROPIC_BASE_URL`, e.g. `http://127.0.0.1:41234` (Claude Code appends `/v1/messages`). */
  readonly url: string;
  readonly port: number;
  /** Every request received (any method and path, `count_tokens` included), in arrival order. Live. */
  readonly requests: readonly RecordedRequest[];
  /** Only the `POST /v1/messages` requests, in order. */
  messagesRequests(): RecordedRequest[];
  /** Installs a scenario for the following requests; its `scenarioIndex` starts again at 0. */
  setScenario(scenario: MessagesScenario): void;
  /**
   * Resolves once `count` `POST /v1/messages` requests have arrived. Rejects with
   * {@link LoopbackMessagesServerClosedError} if the server closes first, or with `signal.reason` on abort.
   */
  waitForMessagesRequests(count: number, options?: { signal?: AbortSignal }): Promise<RecordedRequest[]>;
  /** Stops listening, ends every open stream (hanging ones included) and destroys every socket. Idempotent. */
  close(): Promise<void>;
}

/** The server closed before the awaited requests arrived. */
export class LoopbackMessagesServerClosedError extends RennetError<"LOOPBACK_MESSAGES_CLOSED"> {
  override readonly name = "LoopbackMessagesServerClosedError";
  constructor(awaited: number, received: number) {
    super(
      "LOOPBACK_MESSAGES_CLOSED",
      `loopback Messages server closed after ${received} of ${awaited} awaited POST /v1/messages requests; ` +
        "check that Claude Code points at this server (ANTHROPIC_BASE_URL, see createClaudeHome) and that the turn started",
      { details: { awaited, received } },
    );
  }
}

const MESSAGES_PATH = "/v1/messages";
const COUNT_TOKENS_PATH = "/v1/messages/count_tokens";

/**
 * Starts the server on 127.0.0.1 with an OS-assigned port. It answers `POST /v1/messages` (with or without a
 * query such as `?beta=true`) from the scenario, `POST /v1/messages/count_tokens` with an estimate, and anything
 * else 404 in the Anthropic error shape; it records every request.
 */
export async function startLoopbackMessagesServer(
  options: LoopbackMessagesServerOptions = {},
): Promise<LoopbackMessagesServer> {
  const server = new MessagesServer(options);
  await server.listen();
  return server;
}

class MessagesServer implements LoopbackMessagesServer {
  readonly #http: LoopbackHttpServer;
  readonly #waiters = new CountWaiters(
    () => this.messagesRequests().length,
    () => this.messagesRequests(),
  );
  #scenario: MessagesScenario;
  #scenarioIndex = 0;

  constructor(options: LoopbackMessagesServerOptions) {
    this.#scenario = options.scenario ?? text("ok");
    this.#http = new LoopbackHttpServer(
      {
        name: "loopback",
        tooLarge: (message) => anthropicErrorBody("request_too_large", message),
        answer: (request, res) => this.#route(request, res),
      },
      options.maxBodyBytes,
    );
  }

  get url(): string {
    return `http://127.0.0.1:${this.#http.port}`;
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

  messagesRequests(): RecordedRequest[] {
    return this.#http.requests.filter(
      (request) => request.method === "POST" && pathOnly(request.path) === MESSAGES_PATH,
    );
  }

  setScenario(next: MessagesScenario): void {
    this.#scenario = next;
    this.#scenarioIndex = 0;
  }

  waitForMessagesRequests(count: number, options: { signal?: AbortSignal } = {}): Promise<RecordedRequest[]> {
    return this.#waiters.wait(count, options.signal);
  }

  close(): Promise<void> {
    this.#waiters.close(
      (awaited) => new LoopbackMessagesServerClosedError(awaited, this.messagesRequests().length),
    );
    return this.#http.close();
  }

  async #route(recorded: RecordedRequest, res: ServerResponse): Promise<void> {
    const route = recorded.method === "POST" ? pathOnly(recorded.path) : "";
    if (route === COUNT_TOKENS_PATH) {
      sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(recorded.rawBody.length / 4)) });
      return;
    }
    if (route !== MESSAGES_PATH) {
      const message = `loopback: no route for ${recorded.method} ${recorded.path}`;
      sendJson(res, 404, anthropicErrorBody("not_found_error", message));
      return;
    }
    const index = this.#scenarioIndex++;
    this.#waiters.notify();
    await this.#answer(res, this.#plan(recorded, index), asRecord(recorded.body).stream === true);
  }

  #plan(request: RecordedRequest, index: number): MessagesPlan {
    try {
      return this.#scenario(request, index);
    } catch (error) {
      const body = anthropicErrorBody("api_error", `loopback: scenario threw: ${errorMessage(error)}`);
      return { type: "http-error", status: 500, body };
    }
  }

  async #answer(res: ServerResponse, plan: MessagesPlan, streamed: boolean): Promise<void> {
    if (plan.type === "no-answer") return; // close() destroys the socket
    if (plan.type === "http-error") {
      for (const [name, value] of Object.entries(plan.headers ?? {})) res.setHeader(name, value);
      sendJson(res, plan.status, plan.body);
      return;
    }
    if (!streamed) {
      sendJson(res, 200, messageOfEvents(plan.events));
      return;
    }
    await this.#http.streamEvents(res, plan, encodeServerSentEvent);
  }
}
