/** The app tools of one call or conversation, checked once where they are given. */
import { APP_TOOLS_MCP_SERVER } from "./app-tools-names.js";
import { isAppTool, InvalidToolError, type AppTool } from "./app-tool.js";

/** Tools by name (names come from the agent's requests: looked up in a `Map`). */
export type ToolSet = ReadonlyMap<string, AppTool>;

/**
 * Checks `tools` (an option value): an array of {@link defineTool} values with distinct names. Returns null for
 * an empty array. Throws `InvalidToolError` (`TOOL_INVALID`) naming `where` (e.g. `tools[2]`).
 */
export function toolSet(tools: unknown, where = "tools"): ToolSet | null {
  if (!Array.isArray(tools)) throw new InvalidToolError(`${where} must be an array of defineTool(…) values`);
  const set = new Map<string, AppTool>();
  tools.forEach((tool: unknown, index) => {
    if (!isAppTool(tool))
      throw new InvalidToolError(`${where}[${index}] is not a tool: make it with defineTool({ … })`);
    if (set.has(tool.name))
      throw new InvalidToolError(
        `${where}[${index}]: a tool named ${tool.name} is given twice; names must differ`,
      );
    set.set(tool.name, tool);
  });
  return set.size === 0 ? null : set;
}

/**
 * Checks that a call with app tools names no MCP server of its policy like the server they are served under
 * ({@link APP_TOOLS_MCP_SERVER}), the name by which `agent` (`Claude Code`) reaches them. Throws
 * `InvalidToolError` (`TOOL_INVALID`) naming `option`, where the servers were given.
 */
export function checkAppToolsServerName(
  tools: ToolSet | null,
  policy: "inherit" | { readonly servers: readonly { readonly name: string }[] },
  agent: string,
  option = "`mcp`",
): void {
  if (tools === null || policy === "inherit") return;
  if (policy.servers.some((server) => server.name === APP_TOOLS_MCP_SERVER))
    throw new InvalidToolError(
      `the MCP server name "${APP_TOOLS_MCP_SERVER}" is where ${agent} reaches the app tools: rename that server in ${option}`,
    );
}
