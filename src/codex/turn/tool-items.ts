import type { AgentToolKind } from "../../harness/events.js";
import { isRecord } from "../../json-record.js";

type Json = Record<string, unknown>;

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/**
 * Item types that are tools, and the tool kind each maps to. Look up with `Object.hasOwn` (wire strings).
 * `dynamicToolCall` (an app tool) is not here: its `tool.*` pair comes from the call's run (`app-tool-calls.ts`),
 * which every version with app tools reports; codex's own items of it (0.120 and newer) are `item` events.
 */
export const TOOL_ITEM_TYPES: Readonly<Record<string, AgentToolKind>> = {
  commandExecution: "command",
  fileChange: "fileChange",
  mcpToolCall: "mcp",
  webSearch: "webSearch",
};

/** A short human-readable title for a tool item. Pure. */
export function toolTitle(item: Json): string {
  switch (item.type) {
    case "commandExecution":
      return str(item.command) ?? "command";
    case "fileChange": {
      const changes = Array.isArray(item.changes) ? item.changes : [];
      const paths = changes.map((c) => (isRecord(c) ? str(c.path) : null)).filter((p) => p !== null);
      return paths.length > 0 ? paths.join(", ") : "file change";
    }
    case "mcpToolCall":
      return `${str(item.server) ?? "?"}.${str(item.tool) ?? "?"}`;
    case "webSearch":
      return str(item.query) ?? "web search";
    default:
      return String(item.type);
  }
}
