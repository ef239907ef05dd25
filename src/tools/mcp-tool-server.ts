/**
 * The MCP server subset that offers a session's app tools to an agent speaking MCP (Claude Code over its control
 * channel, others over loopback HTTP): `initialize`, `ping`, notifications, `tools/list` and
 * `tools/call`, one JSON-RPC message in, at most one JSON-RPC response out. Calls run through the session's
 * {@link AppToolCalls}, so validation, events and abort are the same as on every other transport.
 * Transport-free: the harness carries messages in and responses out.
 */
import { isRecord } from "../json-record.js";
import type { AppToolContent } from "../harness/events.js";
import { packageVersion } from "../package-version.js";
import type { AppToolAnswer, AppToolCalls } from "./app-tool-calls.js";
import type { ToolSet } from "./tool-set.js";

/** The protocol version answered when the client asks for none Rennet knows. */
const DEFAULT_PROTOCOL_VERSION = "2025-06-18";
const KNOWN_PROTOCOL_VERSIONS: ReadonlySet<string> = new Set([
  "2024-11-05",
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
]);

/** JSON-RPC error codes used here. */
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INVALID_REQUEST = -32600;

type Json = Record<string, unknown>;

/** One `tools/call` as the transport sees it: the agent's id of the call, and what to report as its item. */
export interface McpCallContext {
  /** The agent's id of the call (the events' `itemId`); from the request when the transport has none. */
  callId: string | null;
  /** The agent's record of the call (the events' `item`); default: the request's params. */
  item?: Json;
}

export interface McpToolServerOptions {
  tools: ToolSet;
  calls: AppToolCalls;
  /** The server's name in `initialize`'s `serverInfo`. */
  name: string;
}

/** The MCP subset over one session's tools. */
export class McpToolServer {
  readonly #options: McpToolServerOptions;
  #calls = 0;

  constructor(options: McpToolServerOptions) {
    this.#options = options;
  }

  /**
   * Answers one JSON-RPC message: resolves with the response, or null for a notification (which needs none).
   * `context` names the call for a `tools/call`. Never rejects.
   */
  async handle(message: unknown, context: McpCallContext = { callId: null }): Promise<Json | null> {
    if (!isRecord(message) || typeof message.method !== "string")
      return errorResponse(isRecord(message) ? message.id : null, INVALID_REQUEST, "not a JSON-RPC request");
    const { id, method } = message;
    if (id === undefined || id === null) return null;
    const params = isRecord(message.params) ? message.params : {};
    switch (method) {
      case "initialize":
        return resultResponse(id, this.#initializeResult(params));
      case "ping":
        return resultResponse(id, {});
      case "tools/list":
        return resultResponse(id, { tools: this.#toolList() });
      case "tools/call":
        return this.#call(id, params, context);
      default:
        return errorResponse(id, METHOD_NOT_FOUND, `method not found: ${method}`);
    }
  }

  #initializeResult(params: Json): Json {
    const asked = params.protocolVersion;
    const protocolVersion =
      typeof asked === "string" && KNOWN_PROTOCOL_VERSIONS.has(asked) ? asked : DEFAULT_PROTOCOL_VERSION;
    return {
      protocolVersion,
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: this.#options.name, version: packageVersion() },
    };
  }

  #toolList(): Json[] {
    return [...this.#options.tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    }));
  }

  async #call(id: unknown, params: Json, context: McpCallContext): Promise<Json> {
    if (typeof params.name !== "string")
      return errorResponse(id, INVALID_PARAMS, "tools/call without a tool name");
    const callId = context.callId ?? `mcp-call-${++this.#calls}`;
    const answer = await this.#options.calls.run({
      callId,
      name: params.name,
      arguments: params.arguments ?? {},
      item: context.item ?? params,
      method: "tools/call",
    });
    return resultResponse(id, callResult(answer));
  }
}

/** A `CallToolResult` for an answer (null: the session ended while the handler ran). Pure. */
function callResult(answer: AppToolAnswer | null): Json {
  if (answer === null)
    return { content: [{ type: "text", text: "Error: the session ended" }], isError: true };
  return { content: answer.content.map(mcpContent), isError: answer.isError };
}

/** A content part in MCP's shape: a `data:` image as `{type:"image", data, mimeType}`, any other URL as text. */
function mcpContent(part: AppToolContent): Json {
  if (part.type === "text") return { type: "text", text: part.text };
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(part.url);
  if (data) return { type: "image", mimeType: data[1], data: data[2] };
  return { type: "text", text: `Image: ${part.url}` };
}

function resultResponse(id: unknown, result: Json): Json {
  return { jsonrpc: "2.0", id, result };
}

function errorResponse(id: unknown, code: number, message: string): Json {
  return { jsonrpc: "2.0", id: id ?? null, error: { code, message } };
}
