/**
 * What the client writes to Claude Code's stdin in stream-json mode (`--input-format stream-json`), one JSON
 * object per line, in the shapes Anthropic's agent SDK writes (0.3.336). Pure builders of plain objects; the
 * transport serializes them. A line that is not JSON makes Claude Code exit 1, so nothing else may be written.
 */

/** The image types the Messages API takes in an image block. */
export type ClaudeImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** An image for the user message, already read and base64-encoded. */
export interface ClaudeImage {
  mediaType: ClaudeImageMediaType;
  /** The file's bytes, base64 (standard alphabet, no line breaks). */
  base64: string;
}

const MEDIA_TYPES: ReadonlyMap<string, ClaudeImageMediaType> = new Map([
  ["png", "image/png"],
  ["jpg", "image/jpeg"],
  ["jpeg", "image/jpeg"],
  ["gif", "image/gif"],
  ["webp", "image/webp"],
]);

/** The media type for an image file by its extension (case-insensitive); null for any other file. */
export function imageMediaTypeOf(fileName: string): ClaudeImageMediaType | null {
  const dot = fileName.lastIndexOf(".");
  if (dot === -1) return null;
  return MEDIA_TYPES.get(fileName.slice(dot + 1).toLowerCase()) ?? null;
}

/** The user message of a turn. */
export interface UserMessageInput {
  text: string;
  /** Sent before the text, each as an image content block. */
  images?: readonly ClaudeImage[];
  /**
   * Set to have the message acknowledged: with `--replay-user-messages` Claude Code echoes it and (2.1.332)
   * reports it through `command_lifecycle` lines naming this uuid.
   */
  uuid?: string;
}

/**
 * `{"type":"user","session_id":"","message":{"role":"user","content":[…]},"parent_tool_use_id":null}`; images
 * first (`{type:"image",source:{type:"base64",media_type,data}}`), then the text block.
 */
export function userMessage(input: UserMessageInput): Record<string, unknown> {
  const content: Record<string, unknown>[] = (input.images ?? []).map((image) => ({
    type: "image",
    source: { type: "base64", media_type: image.mediaType, data: image.base64 },
  }));
  content.push({ type: "text", text: input.text });
  return {
    type: "user",
    session_id: "",
    message: { role: "user", content },
    parent_tool_use_id: null,
    ...(input.uuid === undefined ? {} : { uuid: input.uuid }),
  };
}

/** A control request: `{"type":"control_request","request_id":…,"request":{"subtype":…,…}}`. */
function controlRequest(
  requestId: string,
  request: { subtype: string } & Record<string, unknown>,
): Record<string, unknown> {
  return { type: "control_request", request_id: requestId, request };
}

/**
 * Interrupts the running turn: Claude answers `control_response` success at once, pairs a running tool as
 * rejected, and ends the turn with a `result` of subtype `error_during_execution`. With `cancelQueued`, user
 * messages queued behind the turn are dropped too (2.1.332).
 */
export function interruptRequest(
  requestId: string,
  options: { cancelQueued?: boolean } = {},
): Record<string, unknown> {
  return controlRequest(requestId, {
    subtype: "interrupt",
    ...(options.cancelQueued ? { cancel_queued: true } : {}),
  });
}

/**
 * Registers in-process MCP servers (`sdkMcpServers`): Claude then sends each server's MCP messages to the
 * client as `mcp_message` control requests. Written before the first user message, as the agent SDK does
 * (Claude reads it before the turn starts; measured on 1.0.128, 2.0.77, 2.1.112, 2.1.332).
 */
export function initializeRequest(
  requestId: string,
  options: { sdkMcpServers: readonly string[] },
): Record<string, unknown> {
  return controlRequest(requestId, { subtype: "initialize", sdkMcpServers: [...options.sdkMcpServers] });
}

/** Ends the session: Claude answers success and exits 0 (it also stops background tasks). */
export function endSessionRequest(requestId: string, reason = "rennet: turn ended"): Record<string, unknown> {
  return controlRequest(requestId, { subtype: "end_session", reason });
}

/** A successful answer to a control request Claude sent (`can_use_tool`, `mcp_message`, …). */
export function controlSuccess(requestId: string, response: unknown): Record<string, unknown> {
  return { type: "control_response", response: { subtype: "success", request_id: requestId, response } };
}

/** An error answer to a control request Claude sent. */
export function controlError(requestId: string, error: string): Record<string, unknown> {
  return { type: "control_response", response: { subtype: "error", request_id: requestId, error } };
}
