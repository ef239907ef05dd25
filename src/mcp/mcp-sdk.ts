import { RennetError } from "../errors.js";
import type * as ServerModule from "@modelcontextprotocol/sdk/server/index.js";
import type * as StreamableHttpModule from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type * as TypesModule from "@modelcontextprotocol/sdk/types.js";

/** The parts of the MCP SDK the loopback server uses. */
export type McpSdk = Pick<typeof ServerModule, "Server"> &
  Pick<typeof StreamableHttpModule, "StreamableHTTPServerTransport"> &
  Pick<typeof TypesModule, "CallToolRequestSchema" | "isInitializeRequest" | "ListToolsRequestSchema">;

/**
 * The MCP SDK, an optional peer dependency, loaded on first use so that importing the package does not load it.
 * Rejects with `MCP_SDK_MISSING` (naming the install command) when it is not installed.
 */
export async function loadMcpSdk(): Promise<McpSdk> {
  try {
    const [server, streamableHttp, types] = await Promise.all([
      import("@modelcontextprotocol/sdk/server/index.js"),
      import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
      import("@modelcontextprotocol/sdk/types.js"),
    ]);
    return { ...server, ...streamableHttp, ...types };
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new RennetError(
      "MCP_SDK_MISSING",
      "the loopback MCP server (used by the MCP isolation control and the testkit) needs the optional peer " +
        "dependency @modelcontextprotocol/sdk: install it with `npm i @modelcontextprotocol/sdk`",
      { cause: error },
    );
  }
}
