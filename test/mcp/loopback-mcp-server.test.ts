import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { checkLoopbackUrl } from "../../src/mcp/loopback-url.js";
import {
  ECHO_TOOL,
  startLoopbackMcpServer,
  type LoopbackMcpServer,
} from "../../src/mcp/loopback-mcp-server.js";

let server: LoopbackMcpServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("startLoopbackMcpServer", () => {
  it("rejects a path or tools it cannot serve with TESTKIT_OPTIONS_INVALID naming the option", async () => {
    const invalid = async (options: unknown, option: string): Promise<void> => {
      const error: unknown = await startLoopbackMcpServer(options as never).then(
        (started) => {
          server = started;
          return null;
        },
        (thrown: unknown) => thrown,
      );
      expect(error).toMatchObject({ code: "TESTKIT_OPTIONS_INVALID", details: { option } });
      expect((error as Error).message).toContain(option);
    };
    await invalid({ path: "mcp" }, "path");
    await invalid({ path: "/mcp?x=1" }, "path");
    await invalid({ tools: "echo" }, "tools");
    await invalid({ tools: [{ name: "x" }] }, "tools");
    await invalid({ tools: [{ name: "", run: () => "" }] }, "tools");
    await invalid({ tools: [ECHO_TOOL, ECHO_TOOL] }, "tools");
  });

  it("serves the echo tool over streamable HTTP on a loopback URL the policy accepts", async () => {
    server = await startLoopbackMcpServer();
    expect(checkLoopbackUrl(server.url)).toEqual({ ok: true });
    const client = await connect(server.url);
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(["echo"]);
    const result = await client.callTool({ name: "echo", arguments: { text: 'hé "there"' } });
    expect(result.content).toEqual([{ type: "text", text: 'hé "there"' }]);
    expect(server.toolCalls).toEqual([{ tool: "echo", arguments: { text: 'hé "there"' } }]);
    expect(server.sessionCount).toBe(1);
    await client.close();
  });

  it("runs custom tools, reports their throws as isError, and keeps sessions apart", async () => {
    server = await startLoopbackMcpServer({
      tools: [
        { name: "add", run: (args) => String(Number(args.a) + Number(args.b)) },
        {
          name: "boom",
          run: () => {
            throw new Error("kaput");
          },
        },
      ],
    });
    const first = await connect(server.url);
    const second = await connect(server.url);
    expect((await first.callTool({ name: "add", arguments: { a: 2, b: 3 } })).content).toEqual([
      { type: "text", text: "5" },
    ]);
    const failed = await second.callTool({ name: "boom", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(failed.content).toEqual([{ type: "text", text: "kaput" }]);
    expect(server.sessionCount).toBe(2);
    await first.close();
    await second.close();
  });

  it("refuses requests without a session and other paths; close is idempotent and frees the port", async () => {
    server = await startLoopbackMcpServer();
    const noSession = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(noSession.status).toBe(400);
    const wrongPath = await fetch(server.url.replace(/\/mcp$/, "/other"), { method: "POST", body: "{}" });
    expect(wrongPath.status).toBe(404);
    const url = server.url;
    await server.close();
    await server.close();
    await expect(fetch(url)).rejects.toThrow();
  });
});
