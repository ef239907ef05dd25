import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { RennetError } from "../../errors.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** One tool the loopback server offers. */
export interface LoopbackMcpTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments (an object schema). Default: any object. */
  inputSchema?: { type: "object"; [key: string]: unknown };
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

export interface LoopbackMcpServerOptions {
  /** Default `[ECHO_TOOL]`. */
  tools?: LoopbackMcpTool[];
  /** `serverInfo.name` in the initialize result. Default `rennet-loopback-mcp`. */
  serverName?: string;
  /** Endpoint path. Default `/mcp`. */
  path?: string;
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

/**
 * Starts the server on 127.0.0.1 with an OS-assigned port. The MCP SDK is loaded here, on first use, so that
 * importing the package does not load it.
 */
export async function startLoopbackMcpServer(
  options: LoopbackMcpServerOptions = {},
): Promise<LoopbackMcpServer> {
  const [
    { Server },
    { StreamableHTTPServerTransport },
    { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema },
  ] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).catch((error: unknown) => {
    if ((error as { code?: unknown })?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new RennetError(
      "MCP_SDK_MISSING",
      "the loopback MCP server (used by the MCP isolation control and the testkit) needs the optional peer " +
        "dependency @modelcontextprotocol/sdk: install it with `npm i @modelcontextprotocol/sdk`",
      { cause: error },
    );
  });
  const tools = options.tools ?? [ECHO_TOOL];
  const endpoint = options.path ?? "/mcp";
  const serverName = options.serverName ?? "rennet-loopback-mcp";
  const sessions = new Map<string, Session>();
  const toolCalls: LoopbackMcpToolCall[] = [];
  let sessionCount = 0;
  let closing: Promise<void> | null = null;

  const newSession = (): Session => {
    const server = new Server({ name: serverName, version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? tool.name,
        inputSchema: tool.inputSchema ?? { type: "object" as const },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      toolCalls.push({ tool: request.params.name, arguments: args });
      const tool = tools.find((candidate) => candidate.name === request.params.name);
      if (!tool)
        return {
          content: [{ type: "text" as const, text: `unknown tool ${request.params.name}` }],
          isError: true,
        };
      try {
        return { content: [{ type: "text" as const, text: await tool.run(args) }] };
      } catch (error) {
        return { content: [{ type: "text" as const, text: (error as Error).message }], isError: true };
      }
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessionCount += 1;
        sessions.set(id, session);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const session: Session = { transport, server };
    return session;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const pathname = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (pathname !== endpoint) {
      sendJson(res, 404, { error: `no MCP endpoint at ${pathname}; use ${endpoint}` });
      return;
    }
    if (closing) {
      rpcError(res, 503, "server is closing");
      return;
    }
    const header = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (req.method === "POST") {
      let body: unknown;
      try {
        body = await readJsonBody(req);
      } catch (error) {
        rpcError(res, 400, `invalid request body: ${(error as Error).message}`);
        return;
      }
      if (sessionId !== undefined) {
        const session = sessions.get(sessionId);
        if (!session) return rpcError(res, 404, "unknown MCP session");
        await session.transport.handleRequest(req, res, body);
        return;
      }
      if (!isInitializeRequest(body)) return rpcError(res, 400, "no MCP session: send initialize first");
      const session = newSession();
      await session.server.connect(session.transport);
      await session.transport.handleRequest(req, res, body);
      return;
    }
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (!session) return rpcError(res, sessionId === undefined ? 400 : 404, "no such MCP session");
    await session.transport.handleRequest(req, res);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => rpcError(res, 500, (error as Error).message));
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(0, "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}${endpoint}`,
    port,
    get sessionCount() {
      return sessionCount;
    },
    toolCalls,
    close: () => {
      closing ??= (async () => {
        const open = [...sessions.values()];
        sessions.clear();
        await Promise.allSettled(
          open.map(async ({ transport, server }) => {
            await transport.close();
            await server.close();
          }),
        );
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
