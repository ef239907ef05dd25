/**
 * A session's app tools as a streamable-HTTP MCP server on 127.0.0.1 (an ephemeral port), for an agent that
 * can reach app tools only as an MCP server over HTTP. Every request must carry
 * `Authorization: Bearer <secret>`, the per-session secret only that session's child receives (in its
 * environment); anything else is answered 401 before its body is read. POST carries one JSON-RPC message and
 * gets a JSON answer (202 for a notification); GET (a server-sent stream) is 405, which MCP clients accept.
 * The server lives as long as the session: {@link LoopbackToolServer.close} ends every connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { timingSafeEqual } from "node:crypto";
import { RennetError } from "../errors.js";
import type { McpToolServer } from "./mcp-tool-server.js";

/** The largest request body accepted (a tool call's arguments), in bytes. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface LoopbackToolServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Requests refused for a missing or wrong secret (for tests and diagnostics). */
  readonly refused: number;
  close(): Promise<void>;
}

/** Starts the server; rejects with `APP_TOOLS_SERVER_FAILED` when it cannot listen. */
export async function startLoopbackToolServer(
  server: McpToolServer,
  secret: string,
): Promise<LoopbackToolServer> {
  const expected = Buffer.from(`Bearer ${secret}`);
  let refused = 0;
  const http = createServer((req, res) => {
    if (!authorized(req.headers.authorization, expected)) {
      refused += 1;
      reply(res, 401, { error: "unauthorized" }, { "www-authenticate": "Bearer" });
      req.resume();
      return;
    }
    void serve(server, req, res);
  });
  http.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    http.once("error", (error) =>
      reject(
        new RennetError(
          "APP_TOOLS_SERVER_FAILED",
          `the app tools' MCP server did not start: ${error.message}`,
        ),
      ),
    );
    http.listen(0, "127.0.0.1", resolve);
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get refused() {
      return refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

function authorized(header: string | undefined, expected: Buffer): boolean {
  if (typeof header !== "string") return false;
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function serve(server: McpToolServer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === "DELETE") return reply(res, 200, {});
  if (req.method !== "POST") return reply(res, 405, { error: "method not allowed" }, { allow: "POST" });
  let message: unknown;
  try {
    message = JSON.parse(await readBody(req));
  } catch {
    return reply(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
  }
  if (Array.isArray(message))
    return reply(res, 400, {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "batches not supported" },
    });
  const response = await server.handle(message);
  if (response === null) {
    res.writeHead(202).end();
    return;
  }
  reply(res, 200, response);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("body too large"));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function reply(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}
