import type { EventBody, ProjectTrust, Usage } from "../harness/events.js";
import { asRecord, isRecord } from "../json-record.js";
import {
  addUsage,
  contextWindowOf,
  mergeMessageUsage,
  resultUsage,
  usageFromMessages,
} from "./claude-usage.js";
import { StreamedText } from "../session/streamed-text.js";
import { MessageBlocks } from "./message-blocks.js";
import { PlanTracker } from "./plan-tracker.js";
import {
  type ClaudeAssistantLine,
  type ClaudeResultLine,
  type ClaudeStreamEventLine,
  type ClaudeSystemLine,
  type ClaudeUserLine,
  classifyLine,
  contentBlocks,
  lineMethod,
  namesOtherSession,
  parentToolIdOf,
  streamErrorText,
} from "./stream-json-lines.js";
import { AppToolUses } from "./app-tool-uses.js";
import { controlResponseResult } from "./control-responses.js";
import type { ClaudeMapResult } from "./map-result.js";
import { abandonTool, completeTool, scoped, startTool, type OpenTool } from "./tool-events.js";
import { toolResultsOf } from "./tool-results.js";
import { systemWarning } from "./system-warnings.js";

type Json = Record<string, unknown>;

/**
 * Maps the stdout lines of one Claude Code turn (`claude -p` in stream-json mode with partial messages) to
 * harness event bodies. The turn is owned from its `system/init` to its `result`: a line after that `result` (a
 * background subagent's, a turn Claude queued on its own) or naming another `session_id` is `passthrough` `foreign`.
 * Holds only the turn's state; does no I/O and never throws on odd input.
 */
export class ClaudeEventMapper {
  /** The app tools' calls (a session with app tools); their events are the calls' own. */
  readonly appToolUses: AppToolUses | null;
  #init: ClaudeSystemLine | null = null;
  #result: ClaudeResultLine | null = null;
  #model: string | null = null;
  readonly #blocks = new MessageBlocks();
  readonly #openTools = new Map<string, OpenTool>();
  readonly #denied = new Set<string>();
  readonly #plan: PlanTracker;
  readonly #resumed: boolean;
  readonly #sentRequest: (requestId: string) => boolean;
  /** The main agent's text blocks still streaming. */
  readonly #streamed = new StreamedText();
  /** Text of the main agent's completed text blocks, in order. */
  #texts: string[] = [];
  #requestUsage: unknown = null;
  #lastRequest: Usage | null = null;
  #summed: Usage = usageFromMessages(null);
  #usage: Usage | null = null;

  /**
   * `appTools`: the session offers app tools (`mcp__rennet__*`); `resumes`: the thread it resumes, else null;
   * `sentRequest`: whether the client sent a control request of that id (default: none).
   */
  constructor(
    options: { appTools?: boolean; resumes?: string | null; sentRequest?: (id: string) => boolean } = {},
  ) {
    this.appToolUses = options.appTools === true ? new AppToolUses() : null;
    this.#sentRequest = options.sentRequest ?? (() => false);
    this.#plan = new PlanTracker(options.resumes ?? null);
    this.#resumed = options.resumes != null;
  }

  /** Claude's session id (the thread a later turn resumes), from `system/init` or the `result`. */
  get sessionId(): string | null {
    const id = this.#init?.session_id ?? this.#result?.session_id;
    return typeof id === "string" && id !== "" ? id : null;
  }
  /** The turn's id: the `uuid` of its `system/init` (Claude starts each turn with one), else the session id. */
  get turnId(): string | null {
    const uuid = this.#init?.uuid;
    return typeof uuid === "string" && uuid !== "" ? uuid : this.#init ? this.sessionId : null;
  }
  get model(): string | null {
    return this.#model;
  }
  /** `claude_code_version` of the init (2.0.77 and newer). */
  get harnessVersion(): string | null {
    const version = this.#init?.claude_code_version;
    return typeof version === "string" ? version : null;
  }
  get cwd(): string | null {
    return typeof this.#init?.cwd === "string" ? this.#init.cwd : null;
  }
  /** The `result` that ended the turn, once it arrived. */
  get result(): ClaudeResultLine | null {
    return this.#result;
  }
  /** The turn's usage so far (summed over its model requests; the `result`'s, with the cost, once it came). */
  get usage(): Usage | null {
    return this.#usage;
  }
  /** The main agent's text block still streaming, if one is (its deltas so far); null otherwise. */
  get partialMessage(): string | null {
    return this.#streamed.latest() ?? null;
  }
  get openToolCount(): number {
    return this.#openTools.size;
  }

  /** A successful `result`'s text, else the main agent's last completed text, else null. */
  get finalMessage(): string | null {
    const result = this.#result;
    if (result?.subtype === "success" && result.is_error !== true && typeof result.result === "string")
      return result.result;
    return this.#texts.at(-1) ?? null;
  }

  /** Maps one decoded stdout line. */
  map(frame: Json): ClaudeMapResult {
    const classified = classifyLine(frame);
    if (classified.kind === "control_response")
      return controlResponseResult(frame, classified.line, this.#sentRequest);
    if (classified.kind === "control_request") return { events: [], controlRequest: classified.line };
    if (this.#result !== null || namesOtherSession(frame, this.#init))
      return { events: [{ type: "passthrough", reason: "foreign", native: frame }] };
    switch (classified.kind) {
      case "system":
        return this.#onSystem(classified.line);
      case "stream_event":
        return { events: this.#onStreamEvent(classified.line) };
      case "assistant":
        return { events: this.#onAssistant(classified.line) };
      case "user":
        return { events: this.#onUser(classified.line) };
      case "result":
        return this.#onResult(classified.line);
      case "other":
        return { events: [{ type: "native", method: lineMethod(frame), params: frame }] };
      default:
        return { events: [{ type: "passthrough", reason: "unknown", native: frame }] };
    }
  }

  /**
   * `session.started` for the turn, once its `system/init` came (`init` of a map result): the thread is Claude's
   * session id, the version its `claude_code_version`; `pid` and `trust` are the session's to add.
   */
  sessionStartedBody(session: { pid: number | null; trust?: ProjectTrust }): EventBody {
    return {
      type: "session.started",
      threadId: this.sessionId ?? "",
      model: this.#model,
      cwd: this.cwd,
      harnessVersion: this.harnessVersion,
      pid: session.pid,
      ...(session.trust ? { trust: session.trust } : {}),
    };
  }

  /** Completes every call still open with `status: "unknown"` (the session ended without their results). */
  closeOpenTools(): EventBody[] {
    const events = [...this.#openTools.values()].map(abandonTool);
    this.#openTools.clear();
    if (this.appToolUses !== null) events.push(...this.appToolUses.close());
    return events;
  }

  #onSystem(line: ClaudeSystemLine): ClaudeMapResult {
    const native: EventBody = { type: "native", method: lineMethod(line), params: line };
    if (line.subtype === "init" && this.#init === null) {
      this.#init = line;
      if (typeof line.model === "string") this.#model = line.model;
      const threadId = this.sessionId ?? "";
      return { events: [native, { type: "turn.started", threadId }], init: line };
    }
    if (line.subtype === "permission_denied" && typeof line.tool_use_id === "string")
      this.#denied.add(line.tool_use_id);
    const warning = systemWarning(line);
    return { events: [warning ?? native] };
  }

  #onStreamEvent(line: ClaudeStreamEventLine): EventBody[] {
    const native: EventBody = { type: "native", method: lineMethod(line), params: line };
    if (parentToolIdOf(line) !== null) return [native];
    const event = line.event;
    const index = typeof event.index === "number" ? event.index : 0;
    switch (event.type) {
      case "message_start": {
        const message = asRecord(event.message);
        this.#blocks.startMessage(typeof message.id === "string" ? message.id : null);
        this.#requestUsage = message.usage ?? null;
        if (this.#model === null && typeof message.model === "string") this.#model = message.model;
        return [native];
      }
      case "content_block_start":
        this.#blocks.startBlock(index, String(asRecord(event.content_block).type ?? "unknown"));
        return [native];
      case "content_block_delta": {
        const delta = asRecord(event.delta);
        if (delta.type === "text_delta" && typeof delta.text === "string") {
          const itemId = this.#blocks.deltaItemId(index);
          this.#streamed.append(itemId, delta.text);
          return [{ type: "text.delta", itemId, text: delta.text }];
        }
        if (delta.type === "thinking_delta" && typeof delta.thinking === "string")
          return [
            {
              type: "reasoning.delta",
              itemId: this.#blocks.deltaItemId(index),
              text: delta.thinking,
              kind: "summary",
            },
          ];
        return [native];
      }
      case "message_delta":
        return isRecord(event.usage) ? [native, this.#requestUsed(event.usage)] : [native];
      case "error":
        return [{ type: "warning", method: lineMethod(line), message: streamErrorText(event), native: line }];
      default:
        return [native];
    }
  }

  /** One model request finished: its usage is the `message_start`'s updated by the `message_delta`'s. */
  #requestUsed(deltaUsage: unknown): EventBody {
    const last = usageFromMessages(mergeMessageUsage(this.#requestUsage, deltaUsage));
    this.#lastRequest = last;
    this.#summed = addUsage(this.#summed, last);
    this.#usage = this.#summed;
    return { type: "usage", usage: this.#summed, last, modelContextWindow: null };
  }

  #onAssistant(line: ClaudeAssistantLine): EventBody[] {
    const blocks = contentBlocks(line.message);
    if (typeof line.error === "string") {
      // a synthetic message standing for a failed model request: its text is the error, not the model's
      const text = blocks.map((b) => (typeof b.text === "string" ? b.text : "")).join("");
      return [{ type: "warning", method: "assistant", message: text || line.error, native: line }];
    }
    const parent = parentToolIdOf(line);
    const messageId = typeof line.message.id === "string" ? line.message.id : null;
    if (parent === null && typeof line.message.model === "string") this.#model = line.message.model;
    const events = blocks.flatMap((block) => this.#assistantBlock(block, messageId, parent));
    return events.length > 0 ? events : [{ type: "native", method: "assistant", params: line }];
  }

  #assistantBlock(block: Json, messageId: string | null, parent: string | null): EventBody[] {
    switch (block.type) {
      case "text": {
        const text = typeof block.text === "string" ? block.text : "";
        const itemId = this.#blocks.claim(messageId, "text");
        if (parent === null) {
          this.#texts.push(text);
          this.#streamed.take(itemId);
        }
        return [{ type: "text.completed", itemId, text, ...scoped(parent) }];
      }
      case "thinking":
      case "redacted_thinking": {
        const itemId = this.#blocks.claim(messageId, block.type);
        const summary = typeof block.thinking === "string" ? [block.thinking] : [];
        return [{ type: "reasoning.completed", itemId, summary, ...scoped(parent) }];
      }
      case "tool_use": {
        if (this.appToolUses !== null && AppToolUses.isAppTool(block.name) && typeof block.id === "string") {
          this.appToolUses.started(block, parent);
          return [];
        }
        const started = startTool(block, parent);
        if (started === null) break;
        this.#openTools.set(started.open.id, started.open);
        return [started.event];
      }
    }
    const itemId = typeof block.id === "string" ? block.id : null;
    return [
      { type: "item", phase: "completed", itemId, itemType: String(block.type ?? "unknown"), item: block },
    ];
  }

  #onUser(line: ClaudeUserLine): EventBody[] {
    // the echo of a message the client wrote (`--replay-user-messages`): evidence, not the agent's output
    if ((line as { isReplay?: unknown }).isReplay === true)
      return [{ type: "native", method: "user", params: line }];
    const blocks = contentBlocks(line.message);
    const results = toolResultsOf(blocks);
    const events: EventBody[] = [];
    for (const result of results) {
      if (this.appToolUses?.owns(result.toolUseId)) {
        events.push(...this.appToolUses.completed(result));
        continue;
      }
      const open = this.#openTools.get(result.toolUseId);
      if (open === undefined) {
        events.push({
          type: "item",
          phase: "completed",
          itemId: result.toolUseId,
          itemType: "tool_result",
          item: result.block,
        });
        continue;
      }
      this.#openTools.delete(open.id);
      // Claude's own view of a result rides on the line; a line with several results cannot say whose it is
      const toolUseResult = results.length === 1 ? line.tool_use_result : undefined;
      const context = { toolUseResult, denied: this.#denied.has(open.id) };
      const ended = completeTool(open, result, context);
      const plan =
        open.kind === "plan" && open.parentToolId === null && !result.isError
          ? this.#plan.update(open.name, open.input, toolUseResult, this.sessionId)
          : null;
      events.push(...(plan === null ? ended : [...ended.slice(0, -1), plan, ...ended.slice(-1)]));
    }
    if (blocks.some((block) => block.type !== "tool_result")) {
      const itemId = typeof line.uuid === "string" ? line.uuid : null;
      events.push({ type: "item", phase: "completed", itemId, itemType: "userMessage", item: line });
    }
    return events.length > 0 ? events : [{ type: "native", method: "user", params: line }];
  }

  #onResult(line: ClaudeResultLine): ClaudeMapResult {
    this.#result = line;
    const events = this.closeOpenTools();
    if (isRecord(line.usage)) {
      this.#usage = resultUsage(line, this.#summed, this.#resumed);
      const window = contextWindowOf(line.modelUsage, this.#model);
      events.push({
        type: "usage",
        usage: this.#usage,
        last: this.#lastRequest ?? this.#usage,
        modelContextWindow: window,
      });
    }
    events.push({ type: "native", method: "result", params: line });
    return { events, result: line };
  }
}
