import type { ModelScenario, ResponsePlan } from "./model-response-plan.js";
import type { ModelUsage, ResponseStreamEvent } from "./responses-stream-events.js";
import {
  customToolCallDone,
  functionCallDone,
  modelUsage,
  openAiErrorBody,
  reasoningEvents,
  responseCompleted,
  responseCreated,
  responseFailed,
} from "./responses-stream-events.js";
import { RennetError } from "../errors.js";
import {
  commandToolCall,
  hasToolOutputSinceLastUserMessage,
  offersFunction,
} from "./model-request-inputs.js";
import { messageResponse, splitIntoChunks, usageOrDefault } from "./message-response.js";

export { functionCallOutputs, hasToolOutputSinceLastUserMessage } from "./model-request-inputs.js";
export { splitIntoChunks } from "./message-response.js";

/** Usage reported by `text`, `json`, `rawText` unless told otherwise. */
export const TEXT_USAGE: ModelUsage = modelUsage(120, 30, { cachedInputTokens: 20 });
/** Usage of the first request of `command` (the one answered with the function call). */
export const COMMAND_CALL_USAGE: ModelUsage = modelUsage(1000, 50, {
  cachedInputTokens: 200,
  reasoningOutputTokens: 10,
});
/** Usage of the follow-up request of `command` (the one carrying the command's output). */
export const COMMAND_FOLLOW_UP_USAGE: ModelUsage = modelUsage(1300, 70, {
  cachedInputTokens: 1000,
  reasoningOutputTokens: 20,
});
/** Usage reported by `reasoning`. */
export const REASONING_USAGE: ModelUsage = modelUsage(150, 80, {
  cachedInputTokens: 0,
  reasoningOutputTokens: 40,
});

/** Options shared by the scenarios that stream an assistant message. */
export interface TextOptions {
  /** How to split the message into deltas: a count of near-equal pieces, or the pieces themselves. Default: one per word. */
  chunks?: number | readonly string[] | undefined;
  /** Usage on `response.completed`; null sends none. Default {@link TEXT_USAGE}. */
  usage?: ModelUsage | null | undefined;
  /** Pause between events, in ms. Default 0. */
  delayMs?: number | undefined;
}

/** A scenario answering every request with a stream of custom events. */
export function stream(
  events: readonly ResponseStreamEvent[],
  options: { end?: "close" | "hang"; delayMs?: number } = {},
): ModelScenario {
  const plan: ResponsePlan = {
    type: "stream",
    events,
    end: options.end ?? "close",
    delayMs: options.delayMs ?? 0,
  };
  return () => plan;
}

/** Streams `message` as text deltas, then `response.completed` with usage. */
export function text(message: string, options: TextOptions = {}): ModelScenario {
  const chunks = splitIntoChunks(message, options.chunks);
  return (request) =>
    messageResponse(request, {
      chunks,
      usage: usageOrDefault(options.usage, TEXT_USAGE),
      delayMs: options.delayMs ?? 0,
    });
}

/** A message whose text is `JSON.stringify(value)`, for structured output. */
export function json(value: unknown, options: TextOptions = {}): ModelScenario {
  const serialized = JSON.stringify(value);
  if (serialized === undefined)
    throw new RennetError(
      "SCENARIO_INVALID",
      "json(value): value has no JSON form (undefined or a function)",
    );
  return text(serialized, options);
}

/** A message with exactly this text in one delta, e.g. invalid JSON for a structured-output turn. */
export function rawText(message: string, options: Omit<TextOptions, "chunks"> = {}): ModelScenario {
  return text(message, { ...options, chunks: [message] });
}

/** Options of {@link command}. */
export interface CommandOptions {
  /** The final message, sent once codex posts the command's output. */
  then: string;
  /** `yield_time_ms` in the `exec_command` arguments (codex answers as soon as the command exits, so this only bounds slow commands). Default 10000. */
  yieldTimeMs?: number;
  /** Usage of the call request and of the follow-up request. Defaults {@link COMMAND_CALL_USAGE}, {@link COMMAND_FOLLOW_UP_USAGE}. */
  usage?: { call: ModelUsage; followUp: ModelUsage } | undefined;
  /** Extra `exec_command` arguments (e.g. `workdir`). */
  extraArguments?: Record<string, unknown>;
}

/**
 * Makes codex run `cmd`: a request without a `function_call_output` after its last user message is answered
 * with a `function_call` to `exec_command` (to `shell` with `["bash", "-lc", cmd]` where codex offers only
 * that tool, before 0.98); the follow-up request (carrying that output) gets `then`.
 * codex streams `item/commandExecution/outputDelta` only for output printed after the item started: a command
 * that prints at once has its output only in the completed item's `aggregatedOutput` (prefix `sleep 0.5;`
 * to see deltas).
 */
export function command(cmd: string, options: CommandOptions): ModelScenario {
  const usage = options.usage ?? { call: COMMAND_CALL_USAGE, followUp: COMMAND_FOLLOW_UP_USAGE };
  return (request) => {
    if (hasToolOutputSinceLastUserMessage(request)) {
      return messageResponse(request, {
        chunks: splitIntoChunks(options.then, undefined),
        usage: usage.followUp,
      });
    }
    const responseId = `resp_${request.index}`;
    const [tool, args] = commandToolCall(request, cmd, options);
    return {
      type: "stream",
      events: [
        responseCreated(responseId),
        functionCallDone(`fc_${request.index}`, `call_${request.index}`, tool, args),
        responseCompleted(responseId, usage.call),
      ],
      end: "close",
    };
  };
}

/**
 * Makes codex call the tool `name` with `args` (a `function_call`), then answers the follow-up request (carrying
 * the tool's output) with `then`, e.g. an MCP tool the model is offered. (A file edit: {@link applyPatch}.)
 */
export function toolCall(
  name: string,
  args: Record<string, unknown>,
  options: { then: string },
): ModelScenario {
  return callThenAnswer(
    (index) => functionCallDone(`fc_${index}`, `call_${index}`, name, args),
    options.then,
  );
}

/**
 * Makes codex call the app tool `name` (given in a call's `tools`) with `args`, like {@link toolCall}: by its
 * own name where codex offers it as a dynamic tool (0.100 and newer), else as `mcp__rennet__<name>`, the flat
 * name of the app tools' loopback MCP server (before 0.100). A request that offers neither is answered 503
 * naming it, so a tool that never reached the model fails the turn loudly. The tool's answer is in the next
 * request: `functionCallOutputs(model.responsesRequests().at(-1))`.
 */
export function appToolCall(
  name: string,
  args: Record<string, unknown>,
  options: { then: string },
): ModelScenario {
  const direct = toolCall(name, args, options);
  const overMcp = toolCall(`mcp__rennet__${name}`, args, options);
  return (request, index) =>
    hasToolOutputSinceLastUserMessage(request) || offersFunction(request, name)
      ? direct(request, index)
      : offersFunction(request, `mcp__rennet__${name}`)
        ? overMcp(request, index)
        : {
            type: "http-error",
            status: 503,
            body: openAiErrorBody(`loopback model: app tool ${name} was not offered to the model`),
          };
}

/**
 * Answers a request without tool output since its last user message with the one tool call `call` makes (given
 * the request's index), and the follow-up request with the message `then`.
 */
function callThenAnswer(call: (index: number) => ResponseStreamEvent, then: string): ModelScenario {
  return (request) => {
    if (hasToolOutputSinceLastUserMessage(request)) {
      return messageResponse(request, {
        chunks: splitIntoChunks(then, undefined),
        usage: COMMAND_FOLLOW_UP_USAGE,
      });
    }
    const responseId = `resp_${request.index}`;
    return {
      type: "stream",
      events: [
        responseCreated(responseId),
        call(request.index),
        responseCompleted(responseId, COMMAND_CALL_USAGE),
      ],
      end: "close",
    };
  };
}

/**
 * Makes codex edit files: the model calls the freeform `apply_patch` tool with `patch` (codex's patch format,
 * `*** Begin Patch` … `*** End Patch`), then answers the follow-up request with `then`. Codex offers that tool
 * only to a model it has metadata for: create the CODEX_HOME with `modelCatalog: true`.
 */
export function applyPatch(patch: string, options: { then: string }): ModelScenario {
  return callThenAnswer(
    (index) => customToolCallDone(`ctc_${index}`, `call_${index}`, "apply_patch", patch),
    options.then,
  );
}

/** A reasoning item whose summary streams as deltas (one summary part per string), then the message `then`. */
export function reasoning(
  summary: string | readonly string[],
  then: string,
  options: Omit<TextOptions, "usage"> & { usage?: ModelUsage } = {},
): ModelScenario {
  const parts = typeof summary === "string" ? [summary] : [...summary];
  const chunks = splitIntoChunks(then, options.chunks);
  return (request) =>
    messageResponse(request, {
      before: reasoningEvents(`rs_${request.index}`, parts),
      chunks,
      usage: options.usage ?? REASONING_USAGE,
      delayMs: options.delayMs ?? 0,
    });
}

/**
 * Answers with an HTTP error. codex 0.171.0 replaces the message of a 500 with a fixed "high demand" text;
 * a 503 (`unexpected status 503 Service Unavailable: <message>, url: …`) or a 400 (the raw body) keeps the
 * provider message in the turn error. A string becomes an OpenAI-style body `{error:{message,type,param,code}}`
 * (type `server_error` for 5xx, `invalid_request_error` otherwise); any other value is sent as the JSON body.
 */
export function httpError(
  status: number,
  error: string | object = "loopback model: simulated failure",
): ModelScenario {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new RennetError(
      "SCENARIO_INVALID",
      `httpError(status): ${status} is not an HTTP error status (400-599)`,
    );
  }
  const body =
    typeof error === "string"
      ? openAiErrorBody(error, status >= 500 ? "server_error" : "invalid_request_error")
      : error;
  return () => ({ type: "http-error", status, body });
}

/** A 200 stream carrying `response.failed` with this error. */
export function failedResponse(message: string, code = "server_error"): ModelScenario {
  return (request) => {
    const responseId = `resp_${request.index}`;
    return {
      type: "stream",
      events: [responseCreated(responseId), responseFailed(responseId, { code, message })],
      end: "close",
    };
  };
}

/** Streams part of a message, then ends the HTTP response without `response.completed`. */
export function truncatedStream(partialText = "partial"): ModelScenario {
  return (request) => {
    const itemId = `msg_${request.index}`;
    return {
      type: "stream",
      events: [
        responseCreated(`resp_${request.index}`),
        {
          type: "response.output_item.added",
          item: { type: "message", role: "assistant", id: itemId, content: [] },
        },
        { type: "response.output_text.delta", item_id: itemId, delta: partialText },
      ],
      end: "close",
    };
  };
}

/** Starts the stream (`response.created`) and never ends it; the server's `close()` still ends it. */
export function hang(): ModelScenario {
  return (request) => ({ type: "stream", events: [responseCreated(`resp_${request.index}`)], end: "hang" });
}

/**
 * Request i (counted since the sequence was installed) gets `scenarios[i]`. Past the end: `"repeat-last"`
 * reuses the last one; `"error"` (default) answers 503 naming the exhausted sequence, so an unexpected extra
 * request fails the turn loudly.
 */
export function sequence(
  scenarios: readonly ModelScenario[],
  options: { whenExhausted?: "error" | "repeat-last" } = {},
): ModelScenario {
  if (scenarios.length === 0)
    throw new RennetError("SCENARIO_INVALID", "sequence(scenarios): give at least one scenario");
  return (request, scenarioIndex) => {
    const chosen =
      scenarios[scenarioIndex] ??
      (options.whenExhausted === "repeat-last" ? scenarios[scenarios.length - 1] : undefined);
    if (chosen === undefined) {
      return {
        type: "http-error",
        status: 503, // codex shows a 500 as "high demand", a 503 with this message
        body: openAiErrorBody(
          `loopback model: sequence of ${scenarios.length} scenario(s) exhausted at request ${scenarioIndex}; add a scenario or pass whenExhausted:"repeat-last"`,
        ),
      };
    }
    return chosen(request, scenarioIndex);
  };
}
