/**
 * Scenarios for the loopback Messages server: what the model answers to each request Claude Code makes. A turn
 * with tools makes one request per step; a scenario reads the step from the request itself (the number of
 * assistant messages in its `messages`), so requests Claude adds or retries do not shift it.
 */
import path from "node:path";
import { RennetError } from "../errors.js";
import { asRecord } from "../json-record.js";
import type { RecordedRequest } from "./model-response-plan.js";
import type { MessagesPlan, MessagesScenario } from "./messages-response-plan.js";
import {
  anthropicErrorBody,
  answerEvents,
  messagesUsage,
  type AnswerBlock,
  type MessagesStreamEvent,
  type MessagesUsage,
} from "./messages-stream-events.js";

/** Usage of every answer unless told otherwise (the figures Claude Code's captures were made with). */
export const MESSAGES_TEXT_USAGE: MessagesUsage = messagesUsage(11, 7, { read: 5, write: 3 });

/** Options of the scenarios that answer with text. */
export interface MessagesTextOptions {
  /** A count of near-equal deltas, or the deltas themselves. Default: one delta per word. */
  chunks?: number | readonly string[] | undefined;
  usage?: MessagesUsage | undefined;
  /** Pause between events, in ms (a slow stream). Default 0. */
  delayMs?: number | undefined;
}

/** Options of the scenarios that call a tool and then answer `then`. */
export interface ToolUseOptions {
  /** The text the model answers once the tool's result came back. */
  then: string;
  /** Text streamed in the same message before the tool call. */
  before?: string;
  usage?: MessagesUsage | undefined;
}

/** A tool's input, or a function of the working directory Claude Code states in the request. */
export type ToolInput = Record<string, unknown> | ((cwd: string) => Record<string, unknown>);

/** How many assistant messages the request's history holds: the step of the turn it asks for. */
export function stepOf(request: RecordedRequest): number {
  const messages = asRecord(request.body).messages;
  return Array.isArray(messages)
    ? messages.filter((message) => asRecord(message).role === "assistant").length
    : 0;
}

/** The working directory Claude Code states to the model ("Primary working directory: …"), else the server's. */
export function workingDirectoryOf(request: RecordedRequest): string {
  const match = /(?:Primary working directory|Working directory): ([^\n"\\]+)/.exec(request.rawBody);
  return match?.[1]?.trim() ?? process.cwd();
}

function modelOf(request: RecordedRequest): string {
  const model = asRecord(request.body).model;
  return typeof model === "string" && model !== "" ? model : "claude-loopback";
}

/** A streamed answer with these blocks, ids derived from the request's position in the server's life. */
export function answer(
  request: RecordedRequest,
  blocks: readonly AnswerBlock[],
  options: { usage?: MessagesUsage; delayMs?: number; end?: "close" | "hang" } = {},
): MessagesPlan {
  const events = answerEvents({
    messageId: `msg_loopback_${request.index}`,
    model: modelOf(request),
    blocks,
    usage: options.usage ?? MESSAGES_TEXT_USAGE,
  });
  return { type: "stream", events, end: options.end ?? "close", delayMs: options.delayMs ?? 0 };
}

/** Answers every request with a stream of custom events. */
export function stream(
  events: readonly MessagesStreamEvent[],
  options: { end?: "close" | "hang"; delayMs?: number } = {},
): MessagesScenario {
  const plan: MessagesPlan = {
    type: "stream",
    events,
    end: options.end ?? "close",
    delayMs: options.delayMs ?? 0,
  };
  return () => plan;
}

/** Streams `message` as text deltas: a slow stream with `delayMs`, a long one with a large `chunks` count. */
export function text(message: string, options: MessagesTextOptions = {}): MessagesScenario {
  const chunks = splitText(message, options.chunks);
  return (request) => answer(request, [{ type: "text", chunks }], options);
}

/** A thinking block, then the text `then`. */
export function thinking(thought: string, then: string, options: MessagesTextOptions = {}): MessagesScenario {
  return (request) =>
    answer(
      request,
      [
        { type: "thinking", thinking: thought },
        { type: "text", chunks: splitText(then, options.chunks) },
      ],
      options,
    );
}

/** The first step calls tool `name` with `input`; every later step (after its result) answers `then`. */
export function toolUse(name: string, input: ToolInput, options: ToolUseOptions): MessagesScenario {
  return toolUses([{ name, input }], options);
}

/** One tool call per step, in order, then `then` (e.g. `TaskCreate` then `TaskUpdate`). */
export function toolUses(
  calls: readonly { name: string; input: ToolInput }[],
  options: ToolUseOptions,
): MessagesScenario {
  if (calls.length === 0)
    throw new RennetError("SCENARIO_INVALID", "toolUses(calls): give at least one call");
  return (request) => {
    const step = stepOf(request);
    const call = calls[step];
    if (call === undefined)
      return answer(request, [{ type: "text", chunks: splitText(options.then) }], options);
    const input = typeof call.input === "function" ? call.input(workingDirectoryOf(request)) : call.input;
    const blocks: AnswerBlock[] = [];
    if (step === 0 && options.before) blocks.push({ type: "text", chunks: splitText(options.before) });
    blocks.push({
      type: "tool_use",
      id: `toolu_loopback_${request.index}_${blocks.length}`,
      name: call.name,
      input,
    });
    return answer(request, blocks, options);
  };
}

/** Makes Claude run `command` with its Bash tool (a command must not start with `sleep`: Claude refuses that). */
export function bash(command: string, options: ToolUseOptions): MessagesScenario {
  return toolUse("Bash", { command, description: "run a command" }, options);
}

/** A path made absolute against the working directory Claude Code states. */
function inCwd(file: string): (cwd: string) => string {
  return (cwd) => (path.isAbsolute(file) ? file : path.join(cwd, file));
}

/** Makes Claude replace `oldString` with `newString` in `file` (relative to its working directory) with Edit. */
export function edit(
  file: string,
  oldString: string,
  newString: string,
  options: ToolUseOptions,
): MessagesScenario {
  const at = inCwd(file);
  return toolUse(
    "Edit",
    (cwd) => ({ file_path: at(cwd), old_string: oldString, new_string: newString }),
    options,
  );
}

/** Makes Claude write `content` to `file` (relative to its working directory) with Write. */
export function write(file: string, content: string, options: ToolUseOptions): MessagesScenario {
  const at = inCwd(file);
  return toolUse("Write", (cwd) => ({ file_path: at(cwd), content }), options);
}

/** One entry of a TodoWrite list. */
export interface Todo {
  content: string;
  status: "pending" | "in_progress" | "completed";
  activeForm?: string;
}

/** Makes Claude set its todo list (Claude Code offers TodoWrite up to 2.1.112; later only with its env switches). */
export function todoWrite(todos: readonly Todo[], options: ToolUseOptions): MessagesScenario {
  const list = todos.map((todo) => ({ activeForm: todo.content, ...todo }));
  return toolUse("TodoWrite", { todos: list }, options);
}

/** Makes Claude create a task (`TaskCreate`, 2.1.332's plan tool), then update its status, one per step. */
export function taskCreate(
  subject: string,
  options: ToolUseOptions & { thenStatus?: "in_progress" | "completed" },
): MessagesScenario {
  const create = { name: "TaskCreate", input: { subject, description: subject, activeForm: subject } };
  const update = { name: "TaskUpdate", input: { taskId: "1", status: options.thenStatus ?? "in_progress" } };
  return toolUses(options.thenStatus === undefined ? [create] : [create, update], options);
}

/** Makes Claude call `tool` of the MCP server `server` (offered to the model as `mcp__server__tool`). */
export function mcpTool(
  server: string,
  tool: string,
  args: Record<string, unknown>,
  options: ToolUseOptions,
): MessagesScenario {
  return toolUse(`mcp__${server}__${tool}`, args, options);
}

/**
 * Answers a `--json-schema` turn with `value` through Claude's StructuredOutput tool (2.1.332 ends the turn there;
 * older releases ask once more, answered with `then`).
 */
export function structuredOutput(
  value: Record<string, unknown>,
  options: Partial<ToolUseOptions> = {},
): MessagesScenario {
  return toolUse("StructuredOutput", value, { ...options, then: options.then ?? "done" });
}

const ERROR_TYPES: ReadonlyMap<number, string> = new Map([
  [400, "invalid_request_error"],
  [401, "authentication_error"],
  [403, "permission_error"],
  [404, "not_found_error"],
  [413, "request_too_large"],
  [429, "rate_limit_error"],
  [500, "api_error"],
  [529, "overloaded_error"],
]);

/**
 * Answers with an HTTP error in the Anthropic shape (`{type:"error", error:{type, message}}`). Claude Code retries
 * 401, 429, 5xx and 529 up to 10 times unless `CLAUDE_CODE_MAX_RETRIES=0` (see `createClaudeHome`).
 */
export function httpError(
  status: number,
  message = `loopback error ${status}`,
  options: { type?: string; headers?: Readonly<Record<string, string>> } = {},
): MessagesScenario {
  if (!Number.isInteger(status) || status < 400 || status > 599)
    throw new RennetError("SCENARIO_INVALID", `httpError(${status}): give an HTTP error status (400–599)`);
  const type =
    options.type ?? ERROR_TYPES.get(status) ?? (status >= 500 ? "api_error" : "invalid_request_error");
  const plan: MessagesPlan = {
    type: "http-error",
    status,
    body: anthropicErrorBody(type, message),
    ...(options.headers ? { headers: options.headers } : {}),
  };
  return () => plan;
}

/**
 * Never finishes: `after: "request"` (default) sends nothing at all; `"message_start"` starts the message and
 * stops there. The server's `close()` ends either.
 */
export function hang(options: { after?: "request" | "message_start" } = {}): MessagesScenario {
  if ((options.after ?? "request") === "request") return () => ({ type: "no-answer" });
  return (request) => {
    const plan = answer(request, []);
    return plan.type === "stream" ? { ...plan, events: plan.events.slice(0, 1), end: "hang" } : plan;
  };
}

/**
 * Request i (counted since the sequence was installed) gets `scenarios[i]`. Past the end: `"repeat-last"` reuses
 * the last one; `"error"` (default) answers 500 naming the exhausted sequence, so an unexpected extra request
 * fails the turn loudly.
 */
export function sequence(
  scenarios: readonly MessagesScenario[],
  options: { exhausted?: "error" | "repeat-last" } = {},
): MessagesScenario {
  if (scenarios.length === 0)
    throw new RennetError("SCENARIO_INVALID", "sequence([]): give at least one scenario");
  return (request, index) => {
    const scenario = scenarios[index] ?? (options.exhausted === "repeat-last" ? scenarios.at(-1) : undefined);
    if (scenario === undefined)
      return {
        type: "http-error",
        status: 500,
        body: anthropicErrorBody(
          "api_error",
          `loopback: sequence of ${scenarios.length} exhausted at request ${index + 1}; add a scenario or pass exhausted: "repeat-last"`,
        ),
      };
    return scenario(request, index);
  };
}

/** Splits `message` into deltas: by words (default), into `count` near-equal pieces, or as given. */
export function splitText(message: string, chunks?: number | readonly string[]): string[] {
  if (Array.isArray(chunks)) return [...(chunks as readonly string[])];
  if (typeof chunks === "number") {
    if (!Number.isInteger(chunks) || chunks < 1)
      throw new RennetError("SCENARIO_INVALID", `chunks: ${chunks} is not a positive whole number`);
    const size = Math.max(1, Math.ceil(message.length / chunks));
    const parts: string[] = [];
    for (let at = 0; at < message.length; at += size) parts.push(message.slice(at, at + size));
    while (parts.length < chunks) parts.push("");
    return parts;
  }
  const words = message.match(/\S+\s*|\s+/g);
  return words ?? [message];
}

/** Where Rennet serves a Claude Code session's app tools: the in-process MCP server `rennet`. */
export const APP_TOOL_SERVER = "rennet";

/**
 * Makes Claude call the session's app tool `tool` with `args` (offered to the model as `mcp__rennet__<tool>`),
 * then answer `then` once the result came back; read the result with {@link toolResults} of the next request.
 */
export function appTool(
  tool: string,
  args: Record<string, unknown>,
  options: ToolUseOptions,
): MessagesScenario {
  return mcpTool(APP_TOOL_SERVER, tool, args, options);
}

/** One `tool_result` block a request sent back to the model. */
export interface RequestToolResult {
  toolUseId: string;
  isError: boolean;
  /** The block's text: a string content, or its text parts joined. */
  text: string;
  content: unknown;
}

/** The `tool_result` blocks of a request's last user message (what the model is told its calls returned). */
export function toolResults(request: RecordedRequest | undefined): RequestToolResult[] {
  const messages = request === undefined ? undefined : asRecord(request.body).messages;
  if (!Array.isArray(messages)) return [];
  const last = [...messages].reverse().find((message) => asRecord(message).role === "user");
  const content = asRecord(last).content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) => {
    const b = asRecord(block);
    if (b.type !== "tool_result" || typeof b.tool_use_id !== "string") return [];
    const parts = Array.isArray(b.content) ? b.content : [];
    const text =
      typeof b.content === "string"
        ? b.content
        : parts.map((p) => (typeof asRecord(p).text === "string" ? asRecord(p).text : "")).join("");
    return [
      { toolUseId: b.tool_use_id, isError: b.is_error === true, text: String(text), content: b.content },
    ];
  });
}
