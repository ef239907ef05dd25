/**
 * The invariants every session must satisfy, as lists of violations (empty = fine). Pure.
 */
import { isDeepStrictEqual } from "node:util";
import { TurnCancelledError, TurnFailedError } from "../../src/harness/errors.js";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import type { Expectation, Natural, WireLine } from "./stream-oracle.js";
import type { RunRecord } from "./stream-run.js";
import {
  decodedBadUtf8,
  FOREIGN_USAGE_BASE,
  OWNED,
  requestIdOf,
  requestParams,
  textOf,
  TOOL_ITEM_TYPES,
  turnItems,
  type Scenario,
} from "./stream-model.js";
import { answerServerRequest } from "../../src/internal/test-hooks.js";

const TOOL_KINDS = new Set(["command", "fileChange", "mcp", "webSearch"]);

/** Exactly one terminal, last; `seq` 1..n; `run()` settles as documented; the fake (and its process) ended. */
export function lifecycleViolations(s: Scenario, r: RunRecord): string[] {
  const v: string[] = [];
  if (r.api === "streamed") {
    const seqs = r.events.map((e) => e.seq);
    if (!seqs.every((seq, i) => seq === i + 1)) v.push(`seq is not 1..n: ${seqs.join(",")}`);
    const terminals = r.events.filter((e) => e.type === "terminal").length;
    const stoppedEarly =
      s.caller.t === "breakAfterEvents" && r.interfered && r.events.at(-1)?.type !== "terminal";
    if (!stoppedEarly) {
      if (terminals !== 1) v.push(`${terminals} terminal events`);
      if (r.events.at(-1)?.type !== "terminal")
        v.push(`the last event is ${r.events.at(-1)?.type}, not the terminal`);
      if (r.events.at(-1) !== r.terminal) v.push("session.result is not the terminal event of the stream");
    } else if (terminals !== 0) v.push("a terminal event before the consumer stopped, yet not last");
    if (new Set(r.events.map((e) => e.sessionId)).size > 1) v.push("sessionId changed within the session");
  }
  if (r.run) v.push(...settleViolations(r));
  else if (r.terminal === null) v.push("session.result settled without a terminal");
  if (r.exitedAtResult.some((exited) => !exited)) v.push("the fake had not exited when the result settled");
  if (r.aliveAfterResult.some((alive) => alive)) v.push("the child process was still alive after the result");
  if (s.caller.t === "abortBefore" && r.exitedAtResult.length > 0)
    v.push("spawned with an already aborted signal");
  return v;
}

function settleViolations(r: RunRecord): string[] {
  const run = r.run;
  const t = r.terminal;
  if (!run) return [];
  if (run.resolved) return t?.outcome === "completed" ? [] : [`run() resolved for a ${t?.outcome} terminal`];
  const error = run.error;
  if (error === r.abortReason)
    return r.interfered ? [] : ["run() rejected with the abort reason without an abort"];
  if (error instanceof TurnFailedError)
    return t?.outcome === "failed" ? [] : ["TurnFailedError for a turn that did not fail"];
  if (error instanceof TurnCancelledError) {
    if (t?.outcome !== "cancelled") return ["TurnCancelledError for a turn that was not cancelled"];
    if (t.cancellation?.reason === r.abortReason.message)
      return ["cancelled by the signal, but rejected with TurnCancelledError"];
    return [];
  }
  return [`run() rejected with ${String(error)}`];
}

/** Why the terminal does not show the natural outcome, or null when it does. */
function mismatch(t: TerminalEvent, n: Natural): string | null {
  const got = `${t.outcome}${t.failure ? ` (${t.failure.source}: ${t.failure.message})` : ""}`;
  if (n.outcome === "open") return `the peer never ended the turn and nobody aborted, yet: ${got}`;
  if (n.outcome !== t.outcome)
    return `expected ${n.outcome}${"source" in n ? ` (${n.source})` : ""}, got ${got}`;
  if (n.outcome === "cancelled")
    return t.cancellation?.via === n.via ? null : `expected via ${n.via}, got ${got}`;
  if (n.outcome !== "failed") return t.failure === null ? null : `completed with a failure: ${got}`;
  const f = t.failure;
  if (f?.source !== n.source) return `expected a ${n.source} failure, got ${got}`;
  if (f.source === "jsonrpc" && (f.method !== n.method || f.code !== n.code)) {
    return `expected ${n.method} / code ${n.code}, got ${f.method} / code ${f.code}`;
  }
  if (f.source === "exit" && f.exitCode !== n.code) return `expected exit code ${n.code}, got ${f.exitCode}`;
  if (n.message !== undefined && f.message !== n.message)
    return `expected message "${n.message}", got "${f.message}"`;
  return null;
}

/** The outcome follows what the peer did; foreign frames change nothing; ids are the owned ones. */
export function outcomeViolations(s: Scenario, r: RunRecord, x: Expectation): string[] {
  const v: string[] = [];
  const t = r.terminal;
  const ownedStarts = turnItems(s).filter(
    (i) => "line" in i && i.line.t === "turnStarted" && i.line.scope === "owned",
  );
  for (const e of r.events) {
    if (e.turnId !== null && e.turnId !== OWNED.turnId)
      v.push(`event ${e.seq} (${e.type}) carries turn ${e.turnId}`);
    if ((e.type === "text.delta" || e.type === "text.completed") && e.text.includes("FOREIGN")) {
      v.push(`foreign text streamed as ${e.type}: ${e.text}`);
    }
    if (e.type === "usage" && e.usage.totalTokens >= FOREIGN_USAGE_BASE) v.push("foreign usage reported");
    if (e.type.startsWith("tool.")) {
      const tool = e as Extract<HarnessEvent, { type: "tool.started" }>;
      if (!TOOL_KINDS.has(tool.tool as string) || !TOOL_ITEM_TYPES.includes(tool.item.type as never)) {
        v.push(`${e.type} for item type ${String(tool.item.type)} (tool ${typeof tool.tool})`);
      }
    }
  }
  const starts = r.events.filter((e) => e.type === "turn.started").length;
  if (starts > ownedStarts.length)
    v.push(`${starts} turn.started events for ${ownedStarts.length} owned turn/started`);
  if (t === null) return v; // run() rejected with the signal's reason: checked by lifecycleViolations
  if (t.failure?.source === "turn" && t.failure.timeout) {
    v.push(`the session hung: it ended at the ${r.safetyDeadlineMs} ms safety deadline`);
    return v;
  }
  if (t.finalMessage?.includes("FOREIGN")) v.push(`foreign final message: ${t.finalMessage}`);
  if (t.failure?.message.includes("FOREIGN")) v.push(`foreign failure message: ${t.failure.message}`);
  if ((t.usage?.totalTokens ?? 0) >= FOREIGN_USAGE_BASE) v.push("foreign usage in the terminal");
  if (t.threadId !== null && t.threadId !== OWNED.threadId) v.push(`terminal names thread ${t.threadId}`);
  if (s.caller.t === "abortBefore") {
    if (t.outcome !== "cancelled" || t.cancellation?.via !== "before-turn")
      v.push(`expected cancelled before-turn, got ${t.outcome}`);
    return v;
  }
  const natural = mismatch(t, x.natural);
  if (!r.interfered) {
    if (natural) v.push(natural);
    if (t.finalMessage !== x.finalMessage)
      v.push(`final message ${JSON.stringify(t.finalMessage)}, expected ${JSON.stringify(x.finalMessage)}`);
    const usage = t.usage?.totalTokens ?? null;
    if (usage !== x.usageTotal && !(usage !== null && x.lateUsageTotals.includes(usage)))
      v.push(`usage ${usage}, expected ${x.usageTotal}`);
    if (r.api === "streamed" && starts !== x.ownedTurnStarted)
      v.push(`${starts} turn.started, expected ${x.ownedTurnStarted}`);
  } else if (
    t.outcome !== "cancelled" &&
    natural !== null &&
    !(s.onInterrupt === "completed" && t.outcome === "completed")
  ) {
    v.push(`aborted: expected cancelled or the peer's outcome; ${natural}`);
  }
  return v;
}

/** The event a line read before the decisive frame must have become, or null when it has no own trace. */
function expectedEvent(
  wl: WireLine,
  tagged: (e: HarnessEvent) => boolean,
): ((e: HarnessEvent) => boolean) | null {
  const { line, tag } = wl;
  const passthrough = (reason: string) => (e: HarnessEvent) =>
    e.type === "passthrough" && e.reason === reason && tagged(e);
  const answered = (method: string, params: unknown) => (e: HarnessEvent) => {
    if (e.type !== "request.answered" || e.requestId !== requestIdOf(tag)) return false;
    const reply = answerServerRequest(method, params);
    const want =
      reply.type === "result"
        ? { result: reply.result }
        : { error: { code: reply.code, message: reply.message } };
    return isDeepStrictEqual(e.reply, want);
  };
  switch (line.t) {
    case "request":
      return answered(line.method, requestParams(line, tag));
    case "nested":
      return line.request
        ? (e) => e.type === "request.answered" && e.requestId === requestIdOf(tag)
        : passthrough("unknown");
    case "unknownMethod":
    case "noShape":
      return passthrough("unknown");
    case "global":
      return (e) => (e.type === "native" || e.type === "warning" || e.type === "rate-limits") && tagged(e);
    case "stray":
      return line.kind === "duplicate" ? null : passthrough("foreign");
    case "padded":
    case "invalid":
      return null;
    case "badUtf8Delta":
      return (e) => e.type === "text.delta" && e.text === decodedBadUtf8(line.bytes, tag);
  }
  if (line.scope !== "owned") return passthrough("foreign");
  switch (line.t) {
    case "delta":
      return (e) => e.type === "text.delta" && e.text === textOf("owned", tag);
    case "message":
      return (e) => e.type === "text.completed" && e.text === (wl.text ?? textOf("owned", tag));
    case "tool":
      return (e) => e.type === `tool.${line.phase}` && tagged(e);
    case "otherItem":
      if (line.itemType === "reasoning" && line.phase === "completed") {
        return (e) => e.type === "reasoning.completed" && e.itemId === line.item;
      }
      return (e) => e.type === "item" && e.itemType === line.itemType && e.phase === line.phase && tagged(e);
    case "error":
      return (e) => e.type === "warning" && tagged(e);
    case "usage":
      return (e) => e.type === "usage" && e.usage.totalTokens === line.total;
    case "turnStarted":
      return (e) => e.type === "turn.started";
  }
}

/**
 * Nothing is dropped: every frame read before the decisive one became its event, in wire order (streamed, no
 * interference). Every server request is answered exactly once, as `request.answered` says (always).
 */
export function accountingViolations(r: RunRecord, x: Expectation): string[] {
  const v: string[] = [];
  const answered = r.events.flatMap((e) => (e.type === "request.answered" ? [e] : []));
  const ids = answered.map((e) => String(e.requestId));
  if (new Set(ids).size !== ids.length) v.push(`a server request answered twice: ${ids.join(",")}`);
  if (
    r.received !== null &&
    r.api === "streamed" &&
    !(r.interfered && r.events.at(-1)?.type !== "terminal")
  ) {
    const replies = r.received.filter((f) => !("method" in f));
    for (const e of answered) {
      const sent = replies.filter((f) => f.id === e.requestId);
      const body = sent[0] && ("result" in sent[0] ? { result: sent[0].result } : { error: sent[0].error });
      if (sent.length !== 1 || !isDeepStrictEqual(body, e.reply))
        v.push(`request ${e.requestId}: ${sent.length} replies, not the one reported`);
    }
    const silent = replies.filter((f) => !ids.includes(String(f.id)));
    if (silent.length > 0)
      v.push(`replies without request.answered: ${silent.map((f) => String(f.id)).join(",")}`);
  }
  if (r.interfered || r.api !== "streamed") return v;
  const texts = r.events.map((e) => JSON.stringify(e));
  let cursor = 0;
  for (const wl of x.before) {
    const tagText = `"fuzz":"${wl.tag}"`;
    const predicate = expectedEvent(wl, (e) => texts[e.seq - 1]?.includes(tagText) ?? false);
    if (!predicate) continue;
    const at = r.events.findIndex((e, i) => i >= cursor && predicate(e));
    if (at === -1) {
      const anywhere = r.events.some(predicate);
      v.push(
        `${wl.line.t} ${wl.tag} (${wl.stage}${"scope" in wl.line ? `, ${wl.line.scope}` : ""}) ${anywhere ? "out of wire order" : "has no event"}`,
      );
      continue;
    }
    cursor = at + 1;
  }
  return v;
}

/** Every `tool.started` has a `tool.completed` for the same item before the terminal. */
export function toolPairingViolations(r: RunRecord): string[] {
  if (r.api !== "streamed" || r.events.at(-1)?.type !== "terminal") return [];
  const open = new Set<string>();
  for (const e of r.events) {
    if (e.type === "tool.started") open.add(e.itemId);
    if (e.type === "tool.completed") open.delete(e.itemId);
  }
  return [...open].map((id) => `tool ${id} started but never completed before the terminal`);
}
