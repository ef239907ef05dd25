/**
 * What a `control_response` line means to the turn: Claude's answer to one of the client's control requests
 * (`interrupt`, `end_session`, the app tools' `initialize`) is kept as `native` evidence and handed to the
 * caller; one naming a request id the client never sent answers nothing of this session, so it is a
 * `passthrough` `foreign` (as a Codex response to an id never sent) and reaches nobody. Pure.
 */
import type { ClaudeMapResult } from "./map-result.js";
import type { ClaudeControlResponseLine } from "./stream-json-lines.js";

/** The events of a `control_response` line, and the line itself when it answers a request the client sent. */
export function controlResponseResult(
  frame: Record<string, unknown>,
  line: ClaudeControlResponseLine,
  sentRequest: (requestId: string) => boolean,
): ClaudeMapResult {
  return sentRequest(line.response.request_id)
    ? { events: [{ type: "native", method: "control_response", params: frame }], controlResponse: line }
    : { events: [{ type: "passthrough", reason: "foreign", native: frame }] };
}
