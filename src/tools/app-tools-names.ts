/** Names shared by every transport of app tools. */

/** The MCP server name under which every harness reaches a session's app tools (`mcp__rennet__<tool>`). */
export const APP_TOOLS_MCP_SERVER = "rennet";

/**
 * The environment variable that carries a session's secret for the app tools' loopback MCP server (an agent
 * that reaches app tools only over MCP); set in that session's child only, never in argv.
 */
export const APP_TOOLS_TOKEN_ENV = "RENNET_APP_TOOLS_TOKEN";
