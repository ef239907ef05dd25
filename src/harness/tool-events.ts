/** The events of the agent's tool calls (its own and the app's): what kind of tool, how a call started and ended. */
import type { EventBase, SubagentScoped } from "./event-base.js";

/**
 * What a tool call does: `command` (a shell command), `fileChange` (an edit or a write), `fileRead`, `search`
 * (files or contents: grep, glob, listing), `webFetch`, `webSearch`, `mcp` (a tool of an MCP server), `app`
 * (a tool the app gave the session, run by Rennet in the app's process), `subagent` (a delegated agent run), `plan` (the agent's own checklist tools; the
 * checklist itself arrives as `plan.updated`) or `other` (an agent tool with none of these meanings).
 */
export type ToolKind =
  | "command"
  | "fileChange"
  | "fileRead"
  | "search"
  | "mcp"
  | "app"
  | "webFetch"
  | "webSearch"
  | "subagent"
  | "plan"
  | "other";

/** Every {@link ToolKind} but `app`: the agent's own tools, whose events carry no `app` field. */
export type AgentToolKind = Exclude<ToolKind, "app">;

/** One part of what an app tool sent back to the agent: text, or an image (an `https:` or `data:` URL). */
export type AppToolContent = { type: "text"; text: string } | { type: "image"; url: string };

/** An app tool call as it started: the tool's name and the arguments the agent gave. */
export interface AppToolCallStart {
  name: string;
  arguments: unknown;
}

/** An app tool call as it ended. Exactly one of `result` and `error` is non-null. */
export interface AppToolCallEnd extends AppToolCallStart {
  /** What went back to the agent, when the handler returned. */
  result: AppToolContent[] | null;
  /**
   * Why the call failed: invalid arguments, an unknown tool, the handler's thrown message, or the session
   * ending while the handler ran. The agent saw it as a tool error (except after the session ended).
   */
  error: string | null;
  /** From the agent's request to the handler's settling (or the session's end), in milliseconds. */
  durationMs: number;
}

/**
 * `Fields` with `app` set exactly when `tool` is `app` (`App`: the app's own call), so that a check of
 * `tool === "app"` narrows `app` to what is there.
 */
export type WithAppCall<Fields, App> = Fields &
  ({ tool: AgentToolKind; app?: undefined } | { tool: "app"; /** The app's own tool call. */ app: App });

/** The agent started a tool call (a command, a file change, an MCP or app tool, a search); exactly one `tool.completed` of the same `itemId` follows. */
export type ToolStartedEvent = WithAppCall<ToolStartedFields, AppToolCallStart>;

/** The fields of a {@link ToolStartedEvent} whatever its `tool`. */
export interface ToolStartedFields extends EventBase, SubagentScoped {
  type: "tool.started";
  itemId: string;
  tool: ToolKind;
  /** Short human-readable title: the command line, the patched paths, `server.tool`, the query. */
  title: string;
  /** The native item as the agent sent it (each harness's shape: docs/events.md). */
  item: Record<string, unknown>;
}

/** A chunk of a running tool call's output, for the `tool.started` of the same `itemId`. */
export interface ToolOutputEvent extends EventBase {
  type: "tool.output";
  itemId: string;
  tool: ToolKind;
  /** A chunk of streamed output (command stdout/stderr, file-change progress). */
  text: string;
}

/** A tool call ended (`status`, `exitCode` for a command): once per `tool.started`, before the terminal frame. */
export type ToolCompletedEvent = WithAppCall<ToolCompletedFields, AppToolCallEnd>;

/** The fields of a {@link ToolCompletedEvent} whatever its `tool`. */
export interface ToolCompletedFields extends EventBase, SubagentScoped {
  type: "tool.completed";
  itemId: string;
  tool: ToolKind;
  title: string;
  /** Native item status, e.g. `completed`, `failed`, `declined`. */
  status: string | null;
  /** Command exit code when the tool is a command. */
  exitCode: number | null;
  item: Record<string, unknown>;
}
