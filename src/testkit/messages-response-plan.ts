import type { RecordedRequest } from "./model-response-plan.js";
import type { MessagesStreamEvent } from "./messages-stream-events.js";

/** What the loopback Messages server answers to one `POST /v1/messages`. */
export type MessagesPlan =
  /**
   * A 200 `text/event-stream` writing `events` in order, `delayMs` apart (default 0), then ending the response
   * (`end:"close"`) or keeping it open until the client goes away or the server closes (`end:"hang"`). A request
   * without `stream: true` gets the same answer folded into one JSON message.
   */
  | { type: "stream"; events: readonly MessagesStreamEvent[]; end: "close" | "hang"; delayMs?: number }
  /** An HTTP error with a JSON body and optional headers (e.g. `retry-after`). */
  | { type: "http-error"; status: number; body: unknown; headers?: Readonly<Record<string, string>> }
  /** No answer at all, not even headers, until the client goes away or the server closes. */
  | { type: "no-answer" };

/**
 * A scenario: decides the answer to each `POST /v1/messages`. `scenarioIndex` counts the Messages requests since
 * this scenario was installed (0-based); `request.index` counts every request over the server's life. A
 * scenario that throws, or returns something that is not a plan (a Responses API stream included), makes the
 * server answer 500 saying so.
 */
export type MessagesScenario = (request: RecordedRequest, scenarioIndex: number) => MessagesPlan;
