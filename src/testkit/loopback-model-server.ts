import type { ModelScenario, RecordedRequest, ResponsePlan } from "./model-response-plan.js";
import { text } from "./model-scenarios.js";
import { RennetError } from "../errors.js";
import { encodeServerSentEvent, openAiErrorBody } from "./responses-stream-events.js";
import { sendJson } from "./http-recording.js";
import { ScenarioServer, type ScenarioApi } from "./scenario-server.js";

/** Options of {@link startLoopbackModelServer}. */
export interface LoopbackModelServerOptions {
  /** Answers each `POST /v1/responses`. Default: `text("ok")`. */
  scenario?: ModelScenario | undefined;
  /** Largest request body accepted, in bytes, as sent and after undoing its content-encoding (413 beyond). Default 64 MiB. */
  maxBodyBytes?: number | undefined;
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
   * if the server closes first, with `signal.reason` on abort,
   * and with `TESTKIT_OPTIONS_INVALID` when `count` is not a whole number ≥ 0.
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

/** The event types of the Anthropic Messages API's stream, which a Responses API client cannot read. */
const MESSAGES_EVENT_TYPES: ReadonlySet<string> = new Set([
  "message_start",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "message_delta",
  "message_stop",
]);

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

/** The Responses API: `POST /v1/responses` from the scenario, every other request 404. */
const RESPONSES_API: ScenarioApi<ResponsePlan> = {
  name: "loopback model",
  scenarioPath: RESPONSES_PATH,
  planTypes: ["stream", "http-error"],
  tooLarge: (message) => openAiErrorBody(message, "invalid_request_error"),
  foreignEvent: (type) =>
    MESSAGES_EVENT_TYPES.has(type)
      ? "an event of the Anthropic Messages API; this server stands in for the Responses API of codex: build its " +
        "scenario with modelScenarios, or serve messagesScenarios from startLoopbackMessagesServer"
      : null,
  // 503, not 500: codex (0.171.0) shows a 500 as a fixed "high demand" text, a 503 with the server's message
  scenarioThrew: (message) => ({ type: "http-error", status: 503, body: openAiErrorBody(message) }),
  closedError: (awaited, received) => new LoopbackModelServerClosedError(awaited, received),
  other(request, res) {
    const message = `loopback model: no route for ${request.method} ${request.path}`;
    sendJson(res, 404, openAiErrorBody(message, "invalid_request_error"));
  },
  async send(plan, _request, res, server) {
    if (plan.type === "http-error") sendJson(res, plan.status, plan.body);
    else await server.streamEvents(res, plan, encodeServerSentEvent);
  },
};

class ModelServer extends ScenarioServer<ResponsePlan> implements LoopbackModelServer {
  constructor(options: LoopbackModelServerOptions) {
    super(
      RESPONSES_API,
      options.scenario === undefined ? text("ok") : options.scenario,
      options.maxBodyBytes,
    );
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  responsesRequests(): RecordedRequest[] {
    return this.scenarioRequests();
  }

  waitForResponsesRequests(count: number, options?: { signal?: AbortSignal }): Promise<RecordedRequest[]> {
    return this.waitForScenarioRequests(count, options);
  }
}
