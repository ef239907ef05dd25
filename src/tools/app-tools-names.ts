/** Names shared by every transport of app tools. */

/** The MCP server name under which every harness reaches a session's app tools (`mcp__rennet__<tool>`). */
export const APP_TOOLS_MCP_SERVER = "rennet";
