/**
 * Claude Code's tools as harness tool kinds, and a short title for each call. Tool names are wire strings:
 * looked up in a `Map`, never on a plain object. Pure.
 */
import type { AgentToolKind } from "../harness/events.js";
import { isRecord } from "../json-record.js";

const KINDS: ReadonlyMap<string, AgentToolKind> = new Map<string, AgentToolKind>([
  ["Bash", "command"],
  ["PowerShell", "command"],
  ["Edit", "fileChange"],
  ["MultiEdit", "fileChange"],
  ["Write", "fileChange"],
  ["NotebookEdit", "fileChange"],
  ["Read", "fileRead"],
  ["NotebookRead", "fileRead"],
  ["Grep", "search"],
  ["Glob", "search"],
  ["LS", "search"],
  ["WebFetch", "webFetch"],
  ["WebSearch", "webSearch"],
  ["Task", "subagent"],
  ["Agent", "subagent"],
  ["TodoWrite", "plan"],
  ["TaskCreate", "plan"],
  ["TaskUpdate", "plan"],
  ["TaskList", "plan"],
  ["TaskGet", "plan"],
]);

/** MCP tools are offered to the model as `mcp__<server>__<tool>`. */
const MCP_PREFIX = "mcp__";

/** The kind of a tool by its name: `mcp` for `mcp__…`, `other` for a tool this table does not know. */
export function claudeToolKind(name: string): AgentToolKind {
  if (name.startsWith(MCP_PREFIX)) return "mcp";
  return KINDS.get(name) ?? "other";
}

/** `mcp__server__tool` → `{server, tool}` (the server is the first segment); null for any other name. */
export function mcpToolName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(MCP_PREFIX)) return null;
  const rest = name.slice(MCP_PREFIX.length);
  const split = rest.indexOf("__");
  if (split <= 0) return { server: rest, tool: "" };
  return { server: rest.slice(0, split), tool: rest.slice(split + 2) };
}

function field(input: unknown, ...keys: string[]): string | null {
  if (!isRecord(input)) return null;
  for (const key of keys) {
    const value = input[key];
    if (typeof value === "string" && value.length > 0) return value;
  }
  return null;
}

/**
 * A short human-readable title: the command line, the file, the pattern, the URL or query, the subagent's
 * description, `server.tool` for MCP; the tool's name when the input has nothing better.
 */
export function claudeToolTitle(name: string, input: unknown): string {
  const mcp = mcpToolName(name);
  if (mcp) return mcp.tool ? `${mcp.server}.${mcp.tool}` : mcp.server;
  switch (name) {
    case "Bash":
    case "PowerShell":
      return field(input, "command") ?? name;
    case "Edit":
    case "MultiEdit":
    case "Write":
    case "Read":
      return field(input, "file_path", "path") ?? name;
    case "NotebookEdit":
    case "NotebookRead":
      return field(input, "notebook_path", "file_path") ?? name;
    case "Grep":
    case "Glob":
      return field(input, "pattern") ?? name;
    case "LS":
      return field(input, "path") ?? name;
    case "WebFetch":
      return field(input, "url") ?? name;
    case "WebSearch":
      return field(input, "query") ?? name;
    case "Task":
    case "Agent":
      return field(input, "description", "subagent_type") ?? name;
    case "TaskCreate":
      return field(input, "subject") ?? name;
    default:
      return name;
  }
}
