/** A session's app tools as a loopback MCP server: the MCP subset over the session's calls, behind its secret. */
import type { AppToolCalls } from "./app-tool-calls.js";
import { startLoopbackToolServer, type LoopbackToolServer } from "./loopback-tool-server.js";
import { APP_TOOLS_MCP_SERVER } from "./app-tools-names.js";
import { McpToolServer } from "./mcp-tool-server.js";
import type { ToolSet } from "./tool-set.js";

/** Starts the server for one session; its calls run through `calls` (the session's events and abort). */
export function startAppToolsMcp(
  tools: ToolSet,
  calls: AppToolCalls,
  secret: string,
): Promise<LoopbackToolServer> {
  return startLoopbackToolServer(new McpToolServer({ tools, calls, name: APP_TOOLS_MCP_SERVER }), secret);
}
