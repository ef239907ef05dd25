/**
 * The events of one Claude Code tool call: `tool.started` from its `tool_use` block, and at its `tool_result` the
 * output, the file change or plan change it made, and `tool.completed`. Pure functions over one call.
 */
import type { AgentToolKind, EventBody } from "../harness/events.js";
import { fileChangesOf } from "./file-changes.js";
import { commandOutcome, toolStatus, type ToolResult } from "./tool-results.js";
import { claudeToolKind, claudeToolTitle } from "./tool-kinds.js";

type Json = Record<string, unknown>;

/** A tool call that started and has no result yet. */
export interface OpenTool {
  id: string;
  name: string;
  kind: AgentToolKind;
  title: string;
  input: unknown;
  /** The `tool_use` block as Claude sent it. */
  block: Json;
  parentToolId: string | null;
}

/** `{parentToolId}` for a subagent's event, nothing for the main agent's. */
export function scoped(parentToolId: string | null): { parentToolId?: string } {
  return parentToolId === null ? {} : { parentToolId };
}

/** The open call and its `tool.started` for a `tool_use` block; null when the block has no id or name. */
export function startTool(
  block: Json,
  parentToolId: string | null,
): { open: OpenTool; event: EventBody } | null {
  if (typeof block.id !== "string" || block.id === "" || typeof block.name !== "string") return null;
  const open: OpenTool = {
    id: block.id,
    name: block.name,
    kind: claudeToolKind(block.name),
    title: claudeToolTitle(block.name, block.input),
    input: block.input,
    block,
    parentToolId,
  };
  const event: EventBody = {
    type: "tool.started",
    itemId: open.id,
    tool: open.kind,
    title: open.title,
    item: block,
    ...scoped(parentToolId),
  };
  return { open, event };
}

/** What Claude said about a result besides its block: its own view of it, and whether it was denied. */
export interface ResultContext {
  toolUseResult: unknown;
  denied: boolean;
}

/**
 * The events that end a call: a command's or MCP tool's output (`tool.output`, once, whole: Claude does not
 * stream it), `file.changed` for a successful edit, then `tool.completed`. Plan changes are the caller's.
 */
export function completeTool(open: OpenTool, result: ToolResult, context: ResultContext): EventBody[] {
  const status = toolStatus(result, context.toolUseResult, context.denied);
  const events: EventBody[] = [];
  let exitCode: number | null = null;
  if (open.kind === "command") {
    const outcome = commandOutcome(result, context.toolUseResult);
    exitCode = outcome.exitCode;
    if (outcome.output !== "")
      events.push({ type: "tool.output", itemId: open.id, tool: open.kind, text: outcome.output });
  } else if (open.kind === "mcp" && result.text !== "") {
    events.push({ type: "tool.output", itemId: open.id, tool: open.kind, text: result.text });
  }
  if (open.kind === "fileChange" && !result.isError && !context.denied) {
    events.push({
      type: "file.changed",
      itemId: open.id,
      status,
      changes: fileChangesOf(open.name, open.input, context.toolUseResult),
      ...scoped(open.parentToolId),
    });
  }
  events.push({
    type: "tool.completed",
    itemId: open.id,
    tool: open.kind,
    title: open.title,
    status,
    exitCode,
    item: completedItem(open, result, context.toolUseResult),
    ...scoped(open.parentToolId),
  });
  return events;
}

/** A call that never got a result (the turn ended first: a budget stop, a kill): `status: "unknown"`. */
export function abandonTool(open: OpenTool): EventBody {
  return {
    type: "tool.completed",
    itemId: open.id,
    tool: open.kind,
    title: open.title,
    status: "unknown",
    exitCode: null,
    item: open.block,
    ...scoped(open.parentToolId),
  };
}

/** The native item of a completed call: the `tool_use` block with its `tool_result` block and Claude's view. */
function completedItem(open: OpenTool, result: ToolResult, toolUseResult: unknown): Json {
  const item: Json = { ...open.block, tool_result: result.block };
  if (toolUseResult !== undefined) item.tool_use_result = toolUseResult;
  return item;
}
