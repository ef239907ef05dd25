import type { ResponseStreamEvent } from "./responses-stream-events.js";

/** One HTTP request the loopback model server received, as recorded. */
export interface RecordedRequest {
  /** 0-based position over the server's whole life, in arrival order. */
  readonly index: number;
  readonly method: string;
  /** The path with its query, e.g. `/v1/responses`. */
  readonly path: string;
  /** Lower-cased header names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, or null when the body is empty or not JSON. */
  readonly body: unknown;
  /** The body as UTF-8 text (after undoing a gzip/deflate/br/zstd content-encoding). */
  readonly rawBody: string;
}

/** What the server answers to one `POST /v1/responses`. */
export type ResponsePlan =
  /**
   * A 200 `text/event-stream` writing `events` in order, `delayMs` apart (default 0), then either ending the
   * response (`end:"close"`) or keeping it open until the client goes away or the server closes (`end:"hang"`).
   * A stream closed without `response.completed` is a truncated stream.
   */
  | { type: "stream"; events: readonly ResponseStreamEvent[]; end: "close" | "hang"; delayMs?: number }
  /** An HTTP error with a JSON body. */
  | { type: "http-error"; status: number; body: unknown };

/**
 * A scenario: decides the answer to each `POST /v1/responses`. `scenarioIndex` counts the responses requests
 * since this scenario was installed (0-based); `request.index` counts every request over the server's life.
 * A scenario that throws, or returns something that is not a plan (a Messages API stream included), makes the
 * server answer 503 saying so (codex shows the message of a 503; a 500 it replaces with a "high demand" text).
 */
export type ModelScenario = (request: RecordedRequest, scenarioIndex: number) => ResponsePlan;
