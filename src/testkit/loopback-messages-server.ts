import { RennetError } from "../errors.js";
import { asRecord } from "../json-record.js";
import { pathOnly, sendJson } from "./http-recording.js";
import { ScenarioServer, type ScenarioApi } from "./scenario-server.js";
import type { RecordedRequest } from "./model-response-plan.js";
import type { MessagesPlan, MessagesScenario } from "./messages-response-plan.js";
import { text } from "./messages-scenarios.js";
import { anthropicErrorBody, messageOfEvents } from "./messages-stream-events.js";
import { encodeServerSentEvent } from "./responses-stream-events.js";

/** Options of {@link startLoopbackMessagesServer}. */
export interface LoopbackMessagesServerOptions {
  /** Answers each `POST /v1/messages`. Default: `text("ok")`. */
  scenario?: MessagesScenario | undefined;
  /** Largest request body accepted, in bytes, as sent and after undoing its content-encoding (413 beyond). Default 64 MiB. */
  maxBodyBytes?: number | undefined;
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
   * {@link LoopbackMessagesServerClosedError} if the server closes first, with `signal.reason` on abort,
   * and with `TESTKIT_OPTIONS_INVALID` when `count` is not a whole number ≥ 0.
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

/**
 * The Messages API: `POST /v1/messages` from the scenario (streamed when the request asks for a stream),
 * `POST /v1/messages/count_tokens` with an estimate, every other request 404.
 */
const MESSAGES_API: ScenarioApi<MessagesPlan> = {
  name: "loopback",
  scenarioPath: MESSAGES_PATH,
  planTypes: ["stream", "http-error", "no-answer"],
  tooLarge: (message) => anthropicErrorBody("request_too_large", message),
  foreignEvent: (type) =>
    type.startsWith("response.")
      ? "an event of the OpenAI Responses API; this server stands in for the Messages API of Claude Code: build " +
        "its scenario with messagesScenarios, or serve modelScenarios from startLoopbackModelServer"
      : null,
  scenarioThrew: (message) => ({
    type: "http-error",
    status: 500,
    body: anthropicErrorBody("api_error", message),
  }),
  closedError: (awaited, received) => new LoopbackMessagesServerClosedError(awaited, received),
  other(request, res) {
    if (request.method === "POST" && pathOnly(request.path) === COUNT_TOKENS_PATH) {
      sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(request.rawBody.length / 4)) });
      return;
    }
    const message = `loopback: no route for ${request.method} ${request.path}`;
    sendJson(res, 404, anthropicErrorBody("not_found_error", message));
  },
  async send(plan, request, res, server) {
    if (plan.type === "no-answer") return; // close() destroys the socket
    if (plan.type === "http-error") {
      for (const [name, value] of Object.entries(plan.headers ?? {})) res.setHeader(name, value);
      sendJson(res, plan.status, plan.body);
    } else if (asRecord(request.body).stream !== true) sendJson(res, 200, messageOfEvents(plan.events));
    else await server.streamEvents(res, plan, encodeServerSentEvent);
  },
};

class MessagesServer extends ScenarioServer<MessagesPlan> implements LoopbackMessagesServer {
  constructor(options: LoopbackMessagesServerOptions) {
    super(MESSAGES_API, options.scenario === undefined ? text("ok") : options.scenario, options.maxBodyBytes);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  messagesRequests(): RecordedRequest[] {
    return this.scenarioRequests();
  }

  waitForMessagesRequests(count: number, options?: { signal?: AbortSignal }): Promise<RecordedRequest[]> {
    return this.waitForScenarioRequests(count, options);
  }
}
