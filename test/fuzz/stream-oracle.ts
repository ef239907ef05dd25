/**
 * What a session must look like for a {@link Scenario}: the outcome the peer's frames decide, read in wire order
 * (the first frame that decides wins), and what the client must have made of the frames before it. Pure.
 *
 * Ownership as docs/events.md states it: the session owns the thread `thread/start` returned and the turn of
 * the `turn/start` acknowledgement. A frame naming another thread or turn is foreign whenever it arrives,
 * also in the same chunk as those responses or before the thread exists.
 */
import {
  FUZZ_MAX_LINE_BYTES,
  turnItems,
  type End,
  type Line,
  type Reply,
  type Scenario,
} from "./stream-model.js";
import { decodedBadUtf8, isExitReply, textOf } from "./stream-model.js";
import { DEFAULT_MAX_NESTING_DEPTH } from "../../src/jsonl/json-nesting.js";

export type Natural =
  | { outcome: "completed" }
  | {
      outcome: "failed";
      source: "turn" | "jsonrpc" | "exit" | "parse";
      method?: string;
      /** JSON-RPC code (null on a deadline) for `jsonrpc`; exit code for `exit`. */
      code?: number | null;
      message?: string;
    }
  | { outcome: "cancelled"; via: "interrupted" }
  /** The peer never ends the turn: only the caller can. */
  | { outcome: "open" };

export type Stage = "beforeThread" | "beforeTurn" | "turn";

export interface WireLine {
  line: Line;
  tag: string;
  stage: Stage;
  /** For an owned completed message: the text its `text.completed` must carry. */
  text?: string;
}

export interface Expectation {
  natural: Natural;
  /** The lines the client reads before the frame that decides the outcome, in wire order. */
  before: WireLine[];
  finalMessage: string | null;
  usageTotal: number | null;
  /**
   * Owned usage totals written after the owned `turn/completed` when it left an owned tool open: the session waits
   * briefly for the tool's late completion, and usage that arrives meanwhile may still count (late usage is the
   * turn's own).
   */
  lateUsageTotals: number[];
  ownedTurnStarted: number;
}

/** Whether a line can never be a frame (the framing reports it and the turn fails with a parse failure). */
export function isInvalidLine(line: Line, maxLineBytes = FUZZ_MAX_LINE_BYTES): boolean {
  if (line.t === "invalid") return true;
  if (line.t === "padded") return line.bytes > maxLineBytes;
  if (line.t === "nested") return line.depth > DEFAULT_MAX_NESTING_DEPTH;
  return false;
}

function replyOutcome(method: string, kind: Reply): Natural | null {
  if (kind === "error") return { outcome: "failed", source: "jsonrpc", method, code: -32600 };
  if (isExitReply(kind)) return { outcome: "failed", source: "exit", code: 7 };
  if (kind === "noReply") return { outcome: "failed", source: "jsonrpc", method, code: null };
  return null;
}

/** The last final-answer message, else the last message (the mapper's rule). */
function pickFinal(messages: { text: string; phase: string | null }[]): string | null {
  return (messages.filter((m) => m.phase === "final_answer").at(-1) ?? messages.at(-1))?.text ?? null;
}

function endOutcome(end: End, lastError: string | null): Natural {
  switch (end.t) {
    case "turnCompleted":
      if (end.status === "completed") return { outcome: "completed" };
      if (end.status === "interrupted") return { outcome: "cancelled", via: "interrupted" };
      if (end.status === "failed") {
        const message = end.error
          ? "the provider failed"
          : (lastError ?? "the turn failed without an error message");
        return { outcome: "failed", source: "turn", message };
      }
      return { outcome: "failed", source: "turn" };
    case "exit":
      return { outcome: "failed", source: "exit", code: end.code };
    case "hang":
    case "silent":
      return { outcome: "open" };
  }
}

/** The outcome and the state the client must reach if the caller does not interfere. */
export function expectationOf(s: Scenario, maxLineBytes = FUZZ_MAX_LINE_BYTES): Expectation {
  const before: WireLine[] = [];
  const messages: { text: string; phase: string | null }[] = [];
  /** Owned delta text per message item since its last completion (what a bare completion falls back to). */
  const streamed = new Map<string, string>();
  let usageTotal: number | null = null;
  const lateUsageTotals: number[] = [];
  const openTools = new Set<string>();
  let settling = false;
  let ownedTurnStarted = 0;
  let lastError: string | null = null;
  let natural: Natural | null = null;

  const read = (line: Line, tag: string, stage: Stage): void => {
    if (natural) {
      if (
        settling &&
        !isInvalidLine(line, maxLineBytes) &&
        line.t === "usage" &&
        "scope" in line &&
        line.scope === "owned"
      )
        lateUsageTotals.push(line.total);
      if (isInvalidLine(line, maxLineBytes)) settling = false;
      return;
    }
    if (isInvalidLine(line, maxLineBytes)) {
      natural = { outcome: "failed", source: "parse" };
      return;
    }
    const wire: WireLine = { line, tag, stage };
    before.push(wire);
    if (line.t === "badUtf8Delta")
      streamed.set(line.item, (streamed.get(line.item) ?? "") + decodedBadUtf8(line.bytes, tag));
    if (!("scope" in line) || line.scope !== "owned") return;
    if (line.t === "delta") streamed.set(line.item, (streamed.get(line.item) ?? "") + textOf("owned", tag));
    if (line.t === "message") {
      const fallback = streamed.get(line.item) ?? "";
      streamed.delete(line.item);
      wire.text = line.bare === true ? fallback : textOf("owned", tag);
      messages.push({ text: wire.text, phase: line.phase });
    }
    if (line.t === "usage") usageTotal = line.total;
    if (line.t === "turnStarted") ownedTurnStarted++;
    if (line.t === "tool" && line.phase === "started") openTools.add(line.item);
    if (line.t === "tool" && line.phase === "completed") openTools.delete(line.item);
    if (line.t === "error" && !line.willRetry) lastError = `${textOf("owned", tag)} error`;
  };
  const answer = (method: string, kind: Reply): boolean => {
    if (natural) return false;
    natural = replyOutcome(method, kind);
    return !isExitReply(kind) && kind !== "noReply";
  };

  if (answer("initialize", s.replies.initialize) && natural === null) {
    s.afterInitialize.forEach((line, i) => read(line, `I${i}`, "beforeThread"));
  }
  if (answer("thread/start", s.replies.threadStart)) {
    s.alongThreadStart.lines.forEach((line, i) => read(line, `S${i}`, "beforeTurn"));
  }
  let fallback: string | null = null;
  if (answer("turn/start", s.replies.turnStart)) {
    for (const item of turnItems(s)) {
      if ("line" in item) {
        read(item.line, item.tag, "turn");
        continue;
      }
      // after `silent` the fake goes on writing; after `hang` and `exit` it writes nothing more
      if (!natural && item.end.t !== "silent" && item.end.t !== "hang") {
        natural = endOutcome(item.end, lastError);
        settling = item.end.t === "turnCompleted" && openTools.size > 0;
        if (item.end.t === "turnCompleted" && item.end.items) fallback = "owned-end";
      }
      if (item.end.t === "exit" || item.end.t === "hang") break;
    }
  }
  return {
    natural: natural ?? { outcome: "open" },
    before,
    finalMessage: pickFinal(messages) ?? fallback,
    usageTotal,
    lateUsageTotals,
    ownedTurnStarted,
  };
}
