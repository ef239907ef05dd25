/**
 * The `tool_use` blocks of a Claude Code turn that call the session's app tools (`mcp__rennet__<tool>`). Their
 * `tool.started`/`tool.completed` pair comes from the call itself (`AppToolCalls`, when Claude sends the
 * `tools/call` over its control channel), so the blocks and their `tool_result`s report nothing more. A block
 * Claude never called the server for (an unknown tool, a refused or interrupted call) gets its pair here, from
 * its `tool_result` or, with none, at the turn's end: every app call is reported exactly once. Pure state.
 */
import type { EventBody } from "../harness/events.js";
import { scoped } from "./tool-events.js";
import type { ToolResult } from "./tool-results.js";
import { APP_TOOLS_MCP_SERVER } from "../tools/app-tools-names.js";

type Json = Record<string, unknown>;

/** The name Rennet registers its in-process MCP server under (`sdkMcpServers`). */
export const CLAUDE_APP_SERVER = APP_TOOLS_MCP_SERVER;

/** How Claude names an app tool to the model. */
const CLAUDE_APP_TOOL_PREFIX = `mcp__${CLAUDE_APP_SERVER}__`;

interface AppUse {
  block: Json;
  name: string;
  input: unknown;
  parentToolId: string | null;
  /** Claude sent the `tools/call` for it: the call reports its own pair. */
  served: boolean;
}

export class AppToolUses {
  readonly #uses = new Map<string, AppUse>();
  /** Calls whose `tools/call` came before their block (the pair is the call's). */
  readonly #servedEarly = new Set<string>();

  /** Whether `name` (a `tool_use` name) is one of the session's app tools. */
  static isAppTool(name: unknown): boolean {
    return typeof name === "string" && name.startsWith(CLAUDE_APP_TOOL_PREFIX);
  }

  /** Records an app tool's `tool_use` block (one with a string id); reports nothing. */
  started(block: Json, parentToolId: string | null): void {
    const id = block.id as string;
    const name = (block.name as string).slice(CLAUDE_APP_TOOL_PREFIX.length);
    const served = this.#servedEarly.delete(id);
    this.#uses.set(id, { block, name, input: block.input, parentToolId, served });
  }

  /** Claude called the server for `toolUseId`: returns its block (the call's `item`), null when not seen yet. */
  served(toolUseId: string): Json | null {
    const use = this.#uses.get(toolUseId);
    if (use === undefined) {
      this.#servedEarly.add(toolUseId);
      return null;
    }
    use.served = true;
    return use.block;
  }

  /** Whether a `tool_result` belongs to an app tool's block. */
  owns(toolUseId: string): boolean {
    return this.#uses.has(toolUseId);
  }

  /** The events for an app tool's `tool_result`: none when the call was served, else its failed pair. */
  completed(result: ToolResult): EventBody[] {
    const use = this.#uses.get(result.toolUseId);
    if (use === undefined) return [];
    this.#uses.delete(result.toolUseId);
    if (use.served) return [];
    const error = result.text || "Claude Code did not call the tool";
    return pair(result.toolUseId, use, "failed", error, { ...use.block, tool_result: result.block });
  }

  /** The pairs of blocks never called and never answered (the turn ended first), `status: "unknown"`. */
  close(): EventBody[] {
    const events: EventBody[] = [];
    for (const [id, use] of this.#uses)
      if (!use.served)
        events.push(...pair(id, use, "unknown", "the turn ended before the tool ran", use.block));
    this.#uses.clear();
    return events;
  }
}

function pair(id: string, use: AppUse, status: string, error: string, item: Json): EventBody[] {
  const app = { name: use.name, arguments: use.input };
  return [
    {
      type: "tool.started",
      itemId: id,
      tool: "app",
      title: use.name,
      item: use.block,
      app,
      ...scoped(use.parentToolId),
    },
    {
      type: "tool.completed",
      itemId: id,
      tool: "app",
      title: use.name,
      status,
      exitCode: null,
      item,
      app: { ...app, result: null, error, durationMs: 0 },
      ...scoped(use.parentToolId),
    },
  ];
}
