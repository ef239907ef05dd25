/**
 * The random-stream model: what a fake app-server does in one session (a {@link Scenario}). Pure.
 * stream-script.ts turns it into the fake's script; stream-oracle.ts says what the client must make of it.
 *
 * Frames carry a tag (`fuzz: "T<n>"`: I after initialize, S behind the thread/start response, T in the turn) so
 * that the oracle can find the event each one became.
 */
import type { FakeDeparture } from "../../src/testkit/fake-script.js";
import { FAKE_THREAD_ID, FAKE_TURN_ID } from "../../src/testkit/fake-script.js";

export const OWNED = { threadId: FAKE_THREAD_ID, turnId: FAKE_TURN_ID } as const;
/** Ids of another thread: never owned. */
export const FOREIGN_THREAD = { threadId: "thr_foreign", turnId: "turn_foreign" } as const;
/** Another turn on the owned thread: foreign once the owned turn id is known. */
export const OTHER_TURN = { threadId: FAKE_THREAD_ID, turnId: "turn_other" } as const;

/** Foreign usage totals start here, so that a foreign number in the owned usage is recognisable. */
export const FOREIGN_USAGE_BASE = 1_000_000;

export type Scope = "owned" | "foreignThread" | "otherTurn";
export type ToolItemType = "commandExecution" | "fileChange" | "mcpToolCall" | "webSearch";
export const TOOL_ITEM_TYPES: readonly ToolItemType[] = [
  "commandExecution",
  "fileChange",
  "mcpToolCall",
  "webSearch",
];
/**
 * Item types that are not tools, names of Object.prototype members among them. `dynamicToolCall` is codex's
 * record of an app tool call: an `item` event (the tool pair comes from the call's run).
 */
export const OTHER_ITEM_TYPES = [
  "userMessage",
  "dynamicToolCall",
  "plan",
  "reasoning",
  "newKind",
  "toString",
  "constructor",
  "__proto__",
];

/** Every server request method Rennet answers (src/codex/turn/approvals.ts), and one it does not know. */
export const SERVER_REQUEST_METHODS = [
  "item/commandExecution/requestApproval",
  "item/fileChange/requestApproval",
  "item/permissions/requestApproval",
  "execCommandApproval",
  "applyPatchApproval",
  "item/tool/requestUserInput",
  "mcpServer/elicitation/request",
  "item/tool/call",
  "account/chatgptAuthTokens/refresh",
  "attestation/generate",
  "fuzz/unknownRequest",
];

/** One line the fake writes. */
export type Line =
  | { t: "turnStarted"; scope: Scope }
  /** A foreign turn's completion (the owned one is the scenario's {@link End}). */
  | { t: "turnCompleted"; scope: Exclude<Scope, "owned">; status: "completed" | "failed" }
  | { t: "delta"; scope: Scope; item: string }
  /** An owned delta whose string holds bytes that are not UTF-8 (they decode to U+FFFD). */
  | { t: "badUtf8Delta"; item: string; bytes: number[] }
  /** A completed agent message; a `bare` one carries no text (the client falls back to what was streamed). */
  | { t: "message"; scope: Scope; item: string; phase: "final_answer" | "commentary" | null; bare?: boolean }
  | { t: "tool"; scope: Scope; phase: "started" | "completed"; item: string; itemType: ToolItemType }
  | { t: "otherItem"; scope: Scope; phase: "started" | "completed"; item: string; itemType: string }
  | { t: "usage"; scope: Scope; total: number }
  | { t: "error"; scope: Scope; willRetry: boolean }
  /** A notification without a thread. */
  | { t: "global"; method: "account/rateLimits/updated" | "configWarning" }
  | { t: "unknownMethod" }
  /** An object of no JSON-RPC shape. */
  | { t: "noShape" }
  | { t: "request"; method: string; mcpApproval: boolean }
  | { t: "stray"; kind: "unknownId" | "stringId" | "nullIdError" | "duplicate" }
  | { t: "invalid"; kind: "malformed" | "array" | "number" }
  /** An unknown notification padded to `bytes`: over the line cap it is invalid. */
  | { t: "padded"; bytes: number }
  /** A frame `depth` levels deep: over the nesting cap it is invalid. */
  | { t: "nested"; depth: number; request: boolean };

/** How the fake ends the owned turn, or does not. */
export type End =
  | {
      t: "turnCompleted";
      status: "completed" | "failed" | "interrupted" | "paused";
      error: boolean;
      items: boolean;
    }
  /** Exit with `code`, letting go of stdout in the order `stdout` says. */
  | { t: "exit"; code: number; stdout: FakeDeparture }
  /** Stop reading and answering anything (the interrupt too). */
  | { t: "hang" }
  /** Send nothing more, but answer an interrupt. */
  | { t: "silent" };

/** Instead of answering, exit with code 7; the suffix is the order of the exit and the stdout close. */
export type ExitReply = "exit" | "exit-close-after" | "exit-together" | "exit-keep-open";

export type Reply = "ok" | "error" | ExitReply | "noReply";

export function isExitReply(kind: Reply): kind is ExitReply {
  return kind.startsWith("exit");
}

/** What the caller does. `run` uses `codex.run()`; the others stream. */
export type Caller =
  | { t: "none"; api: "streamed" | "run" }
  | { t: "abortBefore"; api: "streamed" | "run" }
  | { t: "abortAfterEvents"; n: number }
  | { t: "breakAfterEvents"; n: number }
  /** `run()` aborted after `n` turns of the event loop. */
  | { t: "abortAfterTurns"; n: number };

/** What follows a group of lines written together. */
export type Pause = "none" | "awaitReply" | "delay";

export interface Scenario {
  replies: { initialize: Reply; threadStart: Reply; turnStart: Reply };
  /** Lines right after `initialize` was answered, before the thread exists. */
  afterInitialize: Line[];
  /** Lines in the same write as the `thread/start` response, and byte offsets cutting that write. */
  alongThreadStart: { lines: Line[]; cuts: number[] };
  /** The turn's lines, in wire order; the end goes before index `endAt`. */
  turn: Line[];
  endAt: number;
  end: End;
  /** How many of the turn's items (end included) share the `turn/start` response's write, and its cuts. */
  alongTurnStart: { count: number; cuts: number[] };
  /** How the remaining items are grouped into writes. */
  groups: { size: number; cuts: number[]; pause: Pause }[];
  onInterrupt: "default" | "exit" | "none" | "completed";
  caller: Caller;
}

/** The line cap the in-memory fake's framing uses in the fuzz (the real default is 16 MiB). */
export const FUZZ_MAX_LINE_BYTES = 4096;

export type Item = { line: Line; tag: string } | { end: End };

/** The turn's items in wire order: lines with their tags, and the end. */
export function turnItems(s: Scenario): Item[] {
  const lines: Item[] = s.turn.map((line, i) => ({ line, tag: `T${i}` }));
  lines.splice(Math.min(s.endAt, lines.length), 0, { end: s.end });
  return lines;
}

/** The thread and turn ids frames of a scope name. */
export const idsOf = (scope: Scope) =>
  scope === "owned" ? OWNED : scope === "foreignThread" ? FOREIGN_THREAD : OTHER_TURN;

/** Text an agent message or delta of this scope carries. Foreign text is recognisable as such. */
export const textOf = (scope: Scope, tag: string): string =>
  scope === "owned" ? `owned-${tag}` : `FOREIGN-${tag}`;

export const requestIdOf = (tag: string): string => `srv-${tag}`;

/** The text Rennet must stream for a {@link Line} `badUtf8Delta`: each invalid byte sequence becomes U+FFFD. */
export const decodedBadUtf8 = (bytes: number[], tag: string): string =>
  Buffer.concat([Buffer.from(`${textOf("owned", tag)}:`), Buffer.from(bytes)]).toString("utf8");

/** The params of a server request line (the oracle recomputes Rennet's answer from them). */
export function requestParams(line: Extract<Line, { t: "request" }>, tag: string): Record<string, unknown> {
  const params: Record<string, unknown> = { ...OWNED, itemId: `item-${tag}`, fuzz: tag };
  if (line.mcpApproval) params._meta = { codex_approval_kind: "mcp_tool_call" };
  return params;
}
