import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorMessage, RennetError } from "../errors.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { loadMcpSdk, type McpSdk } from "./mcp-sdk.js";

/** One tool the loopback server offers. */
export interface LoopbackMcpTool {
  name: string;
  description?: string | undefined;
  /** JSON Schema of the arguments (an object schema). Default: any object. */
  inputSchema?: { type: "object"; [key: string]: unknown } | undefined;
  /** Produces the tool's text result; a throw becomes an `isError` result carrying the message. */
  run(args: Record<string, unknown>): string | Promise<string>;
}

/** `echo {text}` → `text`: the default tool. */
export const ECHO_TOOL: LoopbackMcpTool = {
  name: "echo",
  description: "Returns its `text` argument unchanged.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  },
  run: (args) => String(args.text ?? ""),
};

/** Options of `startLoopbackMcpServer()`: the tools it serves, its server name and its path. */
export interface LoopbackMcpServerOptions {
  /** Default `[ECHO_TOOL]`. Names are distinct. */
  tools?: LoopbackMcpTool[] | undefined;
  /** `serverInfo.name` in the initialize result. Default `rennet-loopback-mcp`. */
  serverName?: string | undefined;
  /** Endpoint path: starts with "/", no query. Default `/mcp`. */
  path?: string | undefined;
}

/** A tool call the server answered. */
export interface LoopbackMcpToolCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/**
 * A streamable-HTTP MCP server on 127.0.0.1 (the official SDK's transport): the isolation control's probe server,
 * re-exported by the testkit for tests.
 */
export interface LoopbackMcpServer {
  /** The endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  readonly port: number;
  /** How many MCP sessions were initialized (one per connecting client). */
  readonly sessionCount: number;
  /** Every tool call, in arrival order. Live. */
  readonly toolCalls: readonly LoopbackMcpToolCall[];
  /** Closes every session, stops listening and destroys every socket. Idempotent. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function rpcError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RennetError("REQUEST_BODY_TOO_LARGE", "request body too large");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** The MCP sessions of one server: each client's own SDK server and transport, routed by `mcp-session-id`. */
class McpSessions {
  readonly toolCalls: LoopbackMcpToolCall[] = [];
  readonly #sdk: McpSdk;
  readonly #tools: readonly LoopbackMcpTool[];
  readonly #serverName: string;
  readonly #sessions = new Map<string, Session>();
  #count = 0;
  #closing: Promise<void> | null = null;

  constructor(sdk: McpSdk, options: LoopbackMcpServerOptions) {
    this.#sdk = sdk;
    this.#tools = options.tools ?? [ECHO_TOOL];
    this.#serverName = options.serverName ?? "rennet-loopback-mcp";
  }

  get count(): number {
    return this.#count;
  }

  get closing(): boolean {
    return this.#closing !== null;
  }

  /** A POST: to its session, or (an `initialize`) to a new one. */
  async post(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined): Promise<void> {
    let body: unknown;
    try {
      body = await readJsonBody(req);
    } catch (error) {
      rpcError(res, 400, `invalid request body: ${errorMessage(error)}`);
      return;
    }
    if (sessionId !== undefined) {
      const session = this.#sessions.get(sessionId);
      if (!session) return rpcError(res, 404, "unknown MCP session");
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (!this.#sdk.isInitializeRequest(body))
      return rpcError(res, 400, "no MCP session: send initialize first");
    const session = this.#newSession();
    await session.server.connect(session.transport);
    await session.transport.handleRequest(req, res, body);
  }

  /** A GET or DELETE of an existing session. */
  async other(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined): Promise<void> {
    const session = sessionId === undefined ? undefined : this.#sessions.get(sessionId);
    if (!session) return rpcError(res, sessionId === undefined ? 400 : 404, "no such MCP session");
    await session.transport.handleRequest(req, res);
  }

  /** Closes every session. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const open = [...this.#sessions.values()];
      this.#sessions.clear();
      await Promise.allSettled(
        open.map(async ({ transport, server }) => {
          await transport.close();
          await server.close();
        }),
      );
    })();
    return this.#closing;
  }

  /** An SDK server offering the tools, each call recorded, on a transport that registers its session. */
  #newSession(): Session {
    const { Server, StreamableHTTPServerTransport, ListToolsRequestSchema, CallToolRequestSchema } =
      this.#sdk;
    const tools = this.#tools;
    const server = new Server({ name: this.#serverName, version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? tool.name,
        inputSchema: tool.inputSchema ?? { type: "object" as const },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      this.toolCalls.push({ tool: request.params.name, arguments: args });
      const tool = tools.find((candidate) => candidate.name === request.params.name);
      if (!tool)
        return {
          content: [{ type: "text" as const, text: `unknown tool ${request.params.name}` }],
          isError: true,
        };
      try {
        return { content: [{ type: "text" as const, text: await tool.run(args) }] };
      } catch (error) {
        return { content: [{ type: "text" as const, text: errorMessage(error) }], isError: true };
      }
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#count += 1;
        this.#sessions.set(id, session);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    const session: Session = { transport, server };
    return session;
  }
}

/** Routes one HTTP request: only `endpoint`, nothing once closing, then by method and `mcp-session-id`. */
async function route(
  sessions: McpSessions,
  endpoint: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const pathname = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
  if (pathname !== endpoint) {
    sendJson(res, 404, { error: `no MCP endpoint at ${pathname}; use ${endpoint}` });
    return;
  }
  if (sessions.closing) {
    rpcError(res, 503, "server is closing");
    return;
  }
  const header = req.headers["mcp-session-id"];
  const sessionId = Array.isArray(header) ? header[0] : header;
  if (req.method === "POST") await sessions.post(req, res, sessionId);
  else await sessions.other(req, res, sessionId);
}

/** `TESTKIT_OPTIONS_INVALID` naming `option`. */
function invalidOption(option: string, message: string): RennetError {
  return new RennetError("TESTKIT_OPTIONS_INVALID", `loopback MCP server: ${option} ${message}`, {
    details: { option },
  });
}

/** Throws `TESTKIT_OPTIONS_INVALID` for a `path` or `tools` the server cannot serve. */
function checkOptions(options: LoopbackMcpServerOptions): void {
  const { path, tools } = options;
  if (path !== undefined && (typeof path !== "string" || !/^\/[^?#]*$/.test(path)))
    throw invalidOption(
      "path",
      `must start with "/" and have no query or fragment, got ${JSON.stringify(path)}`,
    );
  if (tools === undefined) return;
  if (!Array.isArray(tools)) throw invalidOption("tools", "must be an array of tools");
  const names = new Set<string>();
  for (const tool of tools as unknown[]) {
    const { name, run } = (tool ?? {}) as Partial<LoopbackMcpTool>;
    if (typeof name !== "string" || name.length === 0 || typeof run !== "function")
      throw invalidOption("tools", "entries need a non-empty `name` and a `run` function");
    if (names.has(name)) throw invalidOption("tools", `name ${JSON.stringify(name)} is given twice`);
    names.add(name);
  }
}

/**
 * Starts the server on 127.0.0.1 with an OS-assigned port. Rejects with `MCP_SDK_MISSING` without the SDK, and
 * with `TESTKIT_OPTIONS_INVALID` for a `path` that does not start with "/" or a malformed or repeated tool.
 */
export async function startLoopbackMcpServer(
  options: LoopbackMcpServerOptions = {},
): Promise<LoopbackMcpServer> {
  checkOptions(options);
  const sessions = new McpSessions(await loadMcpSdk(), options);
  const endpoint = options.path ?? "/mcp";
  const http = createServer((req, res) => {
    route(sessions, endpoint, req, res).catch((error: unknown) => rpcError(res, 500, errorMessage(error)));
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(0, "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}${endpoint}`,
    port,
    get sessionCount() {
      return sessions.count;
    },
    toolCalls: sessions.toolCalls,
    close: () => {
      closing ??= sessions.close().then(
        () =>
          new Promise<void>((resolve) => {
            http.close(() => resolve());
            http.closeAllConnections();
          }),
      );
      return closing;
    },
  };
}
