/**
 * The `system` lines that are warnings: Claude retrying a failed model request (`api_retry`), a tool refused by
 * the permission mode (`permission_denied`), Claude's own notices (`informational`, `mirror_error`,
 * `session_writes_lost`, a model refusal fallback). Pure.
 */
import type { EventBody } from "../harness/events.js";
import type { ClaudeSystemLine } from "./stream-json-lines.js";

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** `api_retry`: `{attempt, max_retries, retry_delay_ms, error_status, error}`. */
function retryText(line: ClaudeSystemLine): string {
  const status = typeof line.error_status === "number" ? `HTTP ${line.error_status}` : "an error";
  const kind = text(line.error);
  const attempt = typeof line.attempt === "number" ? line.attempt : "?";
  const of = typeof line.max_retries === "number" ? ` of ${line.max_retries}` : "";
  const delay = typeof line.retry_delay_ms === "number" ? ` in ${Math.round(line.retry_delay_ms)} ms` : "";
  return `the model request failed with ${status}${kind ? ` (${kind})` : ""}; Claude Code retries${delay} (attempt ${attempt}${of})`;
}

const NOTICES: ReadonlySet<string> = new Set([
  "informational",
  "mirror_error",
  "session_writes_lost",
  "model_refusal_fallback",
  "model_refusal_no_fallback",
]);

/** The `warning` body for a system line that is one, else null. */
export function systemWarning(line: ClaudeSystemLine): EventBody | null {
  const method = `system/${line.subtype}`;
  if (line.subtype === "api_retry")
    return { type: "warning", method, message: retryText(line), native: line };
  if (line.subtype === "permission_denied") {
    const tool = text(line.tool_name) ?? "a tool";
    const message = text(line.message) ?? `${tool} was not allowed by the permission mode`;
    return { type: "warning", method, message, native: line };
  }
  if (!NOTICES.has(line.subtype)) return null;
  const message = text(line.content) ?? text(line.message) ?? text(line.error) ?? JSON.stringify(line);
  return { type: "warning", method, message, native: line };
}
