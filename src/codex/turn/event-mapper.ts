import type { EventBody, Usage } from "../../harness/events.js";
import { KNOWN_NOTIFICATION_METHODS } from "../protocol/known-methods.js";
import { usageFromBreakdown } from "./token-usage.js";
import { TurnUsage } from "./turn-usage.js";
import { isRecord } from "../../json-record.js";
import { fileChanged, planUpdated, rateLimits } from "./native-bodies.js";
import { OpenTools } from "./open-tools.js";
import { TOOL_ITEM_TYPES, toolTitle } from "./tool-items.js";
import { TurnOwnership } from "./turn-ownership.js";
import { StreamedText } from "../../session/streamed-text.js";

/** Legacy notifications (codex up to 0.114) duplicate v2 ones; they become `native` events with `legacy: true`. */
const LEGACY_EVENT_PREFIX = "codex/event/";
const AGENT_MESSAGE_DELTA = "item/agentMessage/delta";

/** How Codex said the owned turn ended (`turn/completed`). */
export interface TurnEnd {
  status: string;
  error: { message: string; codexErrorInfo: unknown; additionalDetails: unknown } | null;
}

export interface MapResult {
  events: EventBody[];
  /** Set when this notification completed the owned turn. */
  ended?: TurnEnd;
}

type Json = Record<string, unknown>;

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** The item id an `item/*` notification names. */
function itemIdOf(params: Json): string | null {
  return isRecord(params.item) ? str(params.item.id) : str(params.itemId);
}

function turnErrorOf(value: unknown): TurnEnd["error"] {
  if (!isRecord(value)) return null;
  return {
    message: str(value.message) ?? JSON.stringify(value),
    codexErrorInfo: value.codexErrorInfo ?? null,
    additionalDetails: value.additionalDetails ?? null,
  };
}

/**
 * Maps Codex app-server notifications to harness event bodies for one owned thread and turn.
 *
 * Holds only the turn's accumulated state (ids, text, usage); does no I/O and never throws on odd input.
 * Ownership: a notification naming another thread or another turn is `foreign` and changes nothing.
 */
export class TurnEventMapper {
  readonly ownership: TurnOwnership;
  #turnEnded = false;
  /** Text of completed agent messages, in completion order, with their phase. */
  #messages: { itemId: string; text: string; phase: string | null }[] = [];
  /** Streamed text per agent message item, for a completion that carries no text. */
  readonly #streamed = new StreamedText();
  /** Tool items started in the owned turn and not completed yet. */
  readonly #openTools = new OpenTools();
  readonly #usage: TurnUsage;
  #lastError: TurnEnd["error"] = null;
  #fallbackItems: unknown[] = [];

  /** Ownership is shared with the runner, which adopts ids while the responses naming them are routed. */
  /** The MCP server serving the session's app tools, when they travel over MCP: its items are `item` events. */
  appToolsServer: string | null = null;

  /** `resumed`: the turn runs on a resumed thread, whose earlier usage codex may restore (see {@link TurnUsage}). */
  constructor(ownership: TurnOwnership = new TurnOwnership(), options: { resumed?: boolean } = {}) {
    this.ownership = ownership;
    this.#usage = new TurnUsage(options.resumed === true);
  }

  get threadId(): string | null {
    return this.ownership.threadId;
  }
  get turnId(): string | null {
    return this.ownership.turnId;
  }
  get turnEnded(): boolean {
    return this.#turnEnded;
  }
  get model(): string | null {
    return this.ownership.model;
  }
  /** Usage of the owned turn, or null when Codex reported none. */
  get usage(): Usage | null {
    return this.#usage.usage;
  }
  /** The last non-retrying `error` notification of the owned turn. */
  get lastError(): TurnEnd["error"] {
    return this.#lastError;
  }

  /**
   * The final assistant message: the last completed final-answer message, else the last completed one; when no
   * message completed, the same choice among the agentMessage items of `turn/completed`.
   */
  get finalMessage(): string | null {
    const pick = pickFinal(this.#messages);
    if (pick) return pick.text;
    const fromItems = this.#fallbackItems
      .filter(
        (item): item is Json =>
          isRecord(item) && item.type === "agentMessage" && typeof item.text === "string",
      )
      .map((item) => ({ text: item.text as string, phase: str(item.phase) }));
    return pickFinal(fromItems)?.text ?? null;
  }

  /** The text of the agent message still streaming (no `item/completed` yet), if any. */
  get partialMessage(): string | null {
    return this.#streamed.latest() ?? null;
  }

  /** Maps a response or frame that did not belong to any request this client made. */
  mapStray(frame: Json, why: "unmatched-response" | "unknown-shape"): EventBody[] {
    return [
      { type: "passthrough", reason: why === "unmatched-response" ? "foreign" : "unknown", native: frame },
    ];
  }

  mapNotification(method: string, paramsRaw: unknown, frame: Json): MapResult {
    const params = isRecord(paramsRaw) ? paramsRaw : {};
    if (this.#isForeign(method, params)) {
      return { events: [{ type: "passthrough", reason: "foreign", native: frame }] };
    }
    // before the known-method lookup, which hashes each frame's method: a flood is made of these
    if (method === AGENT_MESSAGE_DELTA) return this.#onAgentMessageDelta(params);
    if (method.startsWith(LEGACY_EVENT_PREFIX)) {
      return { events: [{ type: "native", method, params: paramsRaw, legacy: true }] };
    }
    if (!KNOWN_NOTIFICATION_METHODS.has(method)) {
      return { events: [{ type: "passthrough", reason: "unknown", native: frame }] };
    }
    switch (method) {
      case "turn/started":
        return this.#onTurnStarted(params, frame);
      case "turn/completed":
        return this.#onTurnCompleted(params, frame);
      case "item/started":
      case "item/completed":
        return { events: this.#onItem(method === "item/started" ? "started" : "completed", params, frame) };
      case "item/reasoning/summaryTextDelta":
      case "item/reasoning/textDelta": {
        const kind = method === "item/reasoning/textDelta" ? "content" : "summary";
        const itemId = str(params.itemId) ?? "";
        return { events: [{ type: "reasoning.delta", itemId, text: str(params.delta) ?? "", kind }] };
      }
      case "item/commandExecution/outputDelta":
      case "item/fileChange/outputDelta":
        return {
          events: [
            {
              type: "tool.output",
              itemId: str(params.itemId) ?? "",
              tool: method === "item/fileChange/outputDelta" ? "fileChange" : "command",
              text: str(params.delta) ?? "",
            },
          ],
        };
      case "item/mcpToolCall/progress":
        return {
          events: [
            {
              type: "tool.output",
              itemId: str(params.itemId) ?? "",
              tool: "mcp",
              text: str(params.message) ?? "",
            },
          ],
        };
      case "thread/tokenUsage/updated":
        return { events: this.#onTokenUsage(params, frame) };
      case "error":
        return { events: this.#onError(params, frame) };
      case "warning":
      case "configWarning":
      case "deprecationNotice":
      case "guardianWarning":
      case "windows/worldWritableWarning":
        return { events: [{ type: "warning", method, message: warningText(params), native: frame }] };
      case "turn/plan/updated":
        return { events: [planUpdated(params)] };
      case "turn/diff/updated":
        return { events: [{ type: "diff.updated", diff: str(params.diff) ?? "", native: params }] };
      case "account/rateLimits/updated":
        return { events: [rateLimits(params)] };
      case "model/rerouted": {
        const to = str(params.toModel) ?? str(params.model);
        if (to) this.ownership.reroute(to);
        return { events: [{ type: "native", method, params: paramsRaw }] };
      }
      default:
        return { events: [{ type: "native", method, params: paramsRaw }] };
    }
  }

  #onAgentMessageDelta(params: Json): MapResult {
    const itemId = str(params.itemId) ?? "";
    const delta = str(params.delta) ?? "";
    this.#streamed.append(itemId, delta);
    return { events: [{ type: "text.delta", itemId, text: delta }] };
  }

  #isForeign(method: string, params: Json): boolean {
    const threadId = str(params.threadId) ?? (isRecord(params.thread) ? str(params.thread.id) : null);
    // Before the thread is adopted, a notification naming any thread cannot be about the owned one.
    if (threadId !== null && threadId !== this.ownership.threadId) return true;
    const turnId = str(params.turnId) ?? (isRecord(params.turn) ? str(params.turn.id) : null);
    const ownedTurn = this.ownership.turnId;
    if (turnId !== null && ownedTurn !== null && turnId !== ownedTurn) return true;
    // Anything about a turn after the owned turn ended cannot change it, except the late completion of one of
    // its tools (codex may send a command's item/completed after turn/completed).
    if (this.#turnEnded && turnId !== null && method !== "thread/tokenUsage/updated")
      return !(method === "item/completed" && this.#openTools.has(itemIdOf(params) ?? ""));
    return false;
  }

  #onTurnStarted(params: Json, frame: Json): MapResult {
    const turnId = isRecord(params.turn) ? str(params.turn.id) : null;
    if (turnId === null) return { events: [{ type: "passthrough", reason: "unknown", native: frame }] };
    this.ownership.adoptTurn(turnId);
    return { events: [{ type: "turn.started", threadId: this.ownership.threadId ?? "" }] };
  }

  #onTurnCompleted(params: Json, frame: Json): MapResult {
    const turn = isRecord(params.turn) ? params.turn : null;
    const turnId = turn ? str(turn.id) : null;
    if (turn === null || turnId === null || this.ownership.turnId === null || this.#turnEnded) {
      return {
        events: [{ type: "passthrough", reason: this.#turnEnded ? "foreign" : "unknown", native: frame }],
      };
    }
    this.#turnEnded = true;
    if (Array.isArray(turn.items)) this.#fallbackItems = turn.items;
    const status = str(turn.status) ?? "unknown";
    return {
      events: [
        ...this.closeOpenTools(turn.items, { listedOnly: true }),
        { type: "native", method: "turn/completed", params: params },
      ],
      ended: { status, error: turnErrorOf(turn.error) },
    };
  }

  /** The native item of an open tool call (e.g. the `fileChange` an approval request is about). */
  openToolItem(itemId: string): Json | undefined {
    return this.#openTools.item(itemId);
  }

  /** Tool items started and not completed yet. */
  get openToolCount(): number {
    return this.#openTools.size;
  }

  /**
   * Every `tool.started` ends with a `tool.completed` before the terminal frame. At the owned `turn/completed`,
   * open tools that its `items` list in a final state are completed from there (`listedOnly`); the others stay
   * open for a late `item/completed` (codex may send it after `turn/completed`). When the session ends, the
   * runner completes what is still open: from the turn's `items` when they list it, else `status: "unknown"`.
   */
  closeOpenTools(items?: unknown, options: { listedOnly?: boolean } = {}): EventBody[] {
    return this.#openTools.close(items ?? this.#fallbackItems, options.listedOnly === true);
  }

  #onItem(phase: "started" | "completed", params: Json, frame: Json): EventBody[] {
    const item = params.item;
    if (!isRecord(item)) return [{ type: "passthrough", reason: "unknown", native: frame }];
    const itemType = str(item.type) ?? "unknown";
    const itemId = str(item.id) ?? "";
    if (itemType !== "userMessage") this.#usage.modelAnswered();
    const tool = Object.hasOwn(TOOL_ITEM_TYPES, itemType) ? TOOL_ITEM_TYPES[itemType] : undefined;
    // a call of the app tools' MCP server is reported by the call itself (`app` pair): codex's item is evidence
    const appCall = tool === "mcp" && this.appToolsServer !== null && item.server === this.appToolsServer;
    if (tool && !appCall) {
      if (phase === "started") {
        this.#openTools.start(itemId, tool, item);
        return [{ type: "tool.started", itemId, tool, title: toolTitle(item), item }];
      }
      this.#openTools.complete(itemId);
      return [
        ...(tool === "fileChange" ? [fileChanged(itemId, item)] : []),
        {
          type: "tool.completed",
          itemId,
          tool,
          title: toolTitle(item),
          status: str(item.status),
          exitCode: typeof item.exitCode === "number" ? item.exitCode : null,
          item,
        },
      ];
    }
    if (phase === "completed" && itemType === "agentMessage") {
      const streamed = this.#streamed.take(itemId);
      const text = str(item.text) ?? streamed ?? "";
      this.#messages.push({ itemId, text, phase: str(item.phase) });
      return [{ type: "text.completed", itemId, text }];
    }
    if (phase === "completed" && itemType === "reasoning") {
      const summary = Array.isArray(item.summary) ? item.summary.filter((s) => typeof s === "string") : [];
      return [{ type: "reasoning.completed", itemId, summary }];
    }
    return [{ type: "item", phase, itemId: itemId || null, itemType, item }];
  }

  #onTokenUsage(params: Json, frame: Json): EventBody[] {
    const tokenUsage = isRecord(params.tokenUsage) ? params.tokenUsage : null;
    if (tokenUsage === null) return [{ type: "passthrough", reason: "unknown", native: frame }];
    const total = usageFromBreakdown(tokenUsage.total);
    const last = usageFromBreakdown(tokenUsage.last);
    const usage = this.#usage.update(total, last, this.ownership.turnId !== null);
    if (usage === null) return [{ type: "native", method: "thread/tokenUsage/updated", params }];
    const window = tokenUsage.modelContextWindow;
    return [{ type: "usage", usage, last, modelContextWindow: typeof window === "number" ? window : null }];
  }

  #onError(params: Json, frame: Json): EventBody[] {
    const error = turnErrorOf(params.error);
    const message = error?.message ?? "codex reported an error";
    if (params.willRetry !== true) this.#lastError = error;
    return [{ type: "warning", method: "error", message, native: frame }];
  }
}

/** The last final-answer message, else the last message. */
function pickFinal<M extends { phase: string | null }>(messages: M[]): M | undefined {
  return messages.filter((m) => m.phase === "final_answer").at(-1) ?? messages.at(-1);
}

function warningText(params: Json): string {
  for (const key of ["message", "summary", "details", "text"]) {
    const value = params[key];
    if (typeof value === "string" && value.length > 0) return value;
  }
  return JSON.stringify(params);
}
