/** A {@link Scenario} as the script of the fake app-server: its lines as bytes, grouped into writes. Pure. */
import { fakeSteps } from "../../src/testkit/fake-script.js";
import type {
  FakeChunkPart,
  FakeDeparture,
  FakeReply,
  FakeScript,
  FakeStep,
} from "../../src/testkit/fake-script.js";
import {
  idsOf,
  isExitReply,
  OWNED,
  requestIdOf,
  requestParams,
  textOf,
  turnItems,
  type End,
  type ExitReply,
  type Item,
  type Line,
  type Reply,
  type Scenario,
} from "./stream-model.js";

function notification(method: string, params: Record<string, unknown>): FakeChunkPart {
  return { send: { method, params } };
}

/** One line as bytes the fake writes. */
export function renderLine(line: Line, tag: string): FakeChunkPart {
  switch (line.t) {
    case "turnStarted":
      return notification("turn/started", {
        threadId: idsOf(line.scope).threadId,
        turn: { id: idsOf(line.scope).turnId, items: [], status: "inProgress", error: null },
        fuzz: tag,
      });
    case "turnCompleted":
      return notification("turn/completed", {
        threadId: idsOf(line.scope).threadId,
        turn: {
          id: idsOf(line.scope).turnId,
          items: [
            { type: "agentMessage", id: `m-${tag}`, text: textOf(line.scope, tag), phase: "final_answer" },
          ],
          status: line.status,
          error: line.status === "failed" ? { message: `FOREIGN failure ${tag}` } : null,
        },
        fuzz: tag,
      });
    case "delta":
      return notification("item/agentMessage/delta", {
        ...idsOf(line.scope),
        itemId: line.item,
        delta: textOf(line.scope, tag),
        fuzz: tag,
      });
    case "badUtf8Delta": {
      const head = JSON.stringify({
        method: "item/agentMessage/delta",
        params: { ...OWNED, itemId: line.item, fuzz: tag, delta: "" },
      });
      const open = Buffer.from(head.slice(0, -3), "utf8"); // up to and including the delta's opening quote
      const text = Buffer.concat([Buffer.from(`${textOf("owned", tag)}:`), Buffer.from(line.bytes)]);
      return { rawBase64: Buffer.concat([open, text, Buffer.from('"}}\n')]).toString("base64") };
    }
    case "message":
      return notification("item/completed", {
        ...idsOf(line.scope),
        item: {
          type: "agentMessage",
          id: line.item,
          ...(line.bare === true ? {} : { text: textOf(line.scope, tag) }),
          phase: line.phase,
          fuzz: tag,
        },
        fuzz: tag,
      });
    case "tool":
    case "otherItem":
      return notification(`item/${line.phase}`, {
        ...idsOf(line.scope),
        item: {
          type: line.itemType,
          id: line.item,
          status: line.phase === "completed" ? "completed" : "inProgress",
          fuzz: tag,
        },
        fuzz: tag,
      });
    case "usage": {
      const total = { totalTokens: line.total, inputTokens: line.total, outputTokens: 0 };
      return notification("thread/tokenUsage/updated", {
        ...idsOf(line.scope),
        tokenUsage: { total, last: total, modelContextWindow: 1000 },
        fuzz: tag,
      });
    }
    case "error":
      return notification("error", {
        ...idsOf(line.scope),
        error: { message: `${textOf(line.scope, tag)} error` },
        willRetry: line.willRetry,
        fuzz: tag,
      });
    case "global":
      return notification(line.method, { message: `global ${tag}`, fuzz: tag });
    case "unknownMethod":
      return notification("fuzz/unknown", { fuzz: tag });
    case "noShape":
      return { send: { hello: "world", fuzz: tag } };
    case "request":
      return { send: { id: requestIdOf(tag), method: line.method, params: requestParams(line, tag) } };
    case "stray":
      if (line.kind === "duplicate") return { duplicateResponse: "initialize" };
      if (line.kind === "nullIdError") {
        return { send: { id: null, error: { code: -1, message: `stray ${tag}`, data: { fuzz: tag } } } };
      }
      return { send: { id: line.kind === "stringId" ? `nope-${tag}` : 900_000, result: { fuzz: tag } } };
    case "invalid":
      return {
        raw:
          line.kind === "malformed"
            ? `{"method":"x",${tag}\n`
            : line.kind === "array"
              ? `[1,"${tag}"]\n`
              : "42\n",
      };
    case "padded":
      return { paddedFrame: line.bytes };
    case "nested": {
      const head = line.request
        ? { id: requestIdOf(tag), method: "fuzz/deepRequest", fuzz: tag }
        : { method: "fuzz/deep", fuzz: tag };
      return { raw: fakeSteps.nested(line.depth, head).raw };
    }
  }
}

function endPart(end: Extract<End, { t: "turnCompleted" }>): FakeChunkPart {
  return fakeSteps.turnCompleted(end.status, {
    error: end.error ? { message: "the provider failed" } : null,
    items: end.items ? [{ type: "agentMessage", id: "m-end", text: "owned-end", phase: "final_answer" }] : [],
  });
}

function endStep(end: End): FakeStep {
  switch (end.t) {
    case "turnCompleted":
      return { chunk: { parts: [endPart(end)] } };
    case "exit":
      return { exit: { code: end.code, stdout: end.stdout } };
    case "hang":
      return { hang: true };
    case "silent":
      return { delayMs: 0 };
  }
}

const EXIT_ORDER: Record<Exclude<ExitReply, "exit">, FakeDeparture> = {
  "exit-close-after": "close-after",
  "exit-together": "together",
  "exit-keep-open": "keep-open",
};

const REPLY_ERROR = { error: { code: -32600, message: "refused by the fuzz" } };

function reply(kind: Reply): FakeReply | undefined {
  if (kind === "ok") return undefined;
  if (kind === "error") return REPLY_ERROR;
  if (kind === "exit") return { exit: { code: 7 } };
  if (isExitReply(kind)) return { exit: { code: 7, stdout: EXIT_ORDER[kind] } };
  return { noReply: true };
}

/** The script the fake follows for a scenario. */
export function scriptOf(s: Scenario): FakeScript {
  const replies: Record<string, FakeReply> = {};
  for (const [method, kind] of [
    ["initialize", s.replies.initialize],
    ["thread/start", s.replies.threadStart],
    ["turn/start", s.replies.turnStart],
  ] as const) {
    const r = reply(kind);
    if (r) replies[method] = r;
  }
  const items = turnItems(s);
  // the acknowledgement's write takes items up to the first end that is not a frame
  let along = 0;
  while (along < Math.min(s.alongTurnStart.count, items.length)) {
    const item = items[along] as Item;
    if ("end" in item && item.end.t !== "turnCompleted") break;
    along++;
  }
  const part = (item: Item): FakeChunkPart =>
    "line" in item
      ? renderLine(item.line, item.tag)
      : endPart(item.end as Extract<End, { t: "turnCompleted" }>);
  const turn: FakeStep[] = [];
  let rest = items.slice(along);
  for (const group of s.groups) {
    if (rest.length === 0) break;
    const size = Math.max(1, group.size);
    const taken: Item[] = [];
    while (taken.length < size && rest.length > 0) {
      const next = rest[0] as Item;
      if ("end" in next && next.end.t !== "turnCompleted") {
        if (taken.length === 0) {
          turn.push(endStep(next.end));
          rest = rest.slice(1);
        }
        break;
      }
      taken.push(next);
      rest = rest.slice(1);
    }
    if (taken.length === 0) continue;
    turn.push({ chunk: { parts: taken.map(part), cuts: group.cuts } });
    const lastRequest = [...taken].reverse().find((i) => "line" in i && i.line.t === "request");
    if (group.pause === "awaitReply" && lastRequest && "line" in lastRequest) {
      turn.push({ awaitReply: requestIdOf(lastRequest.tag) });
    } else if (group.pause === "delay") turn.push({ delayMs: 1 });
  }
  for (const item of rest) turn.push("line" in item ? { chunk: { parts: [part(item)] } } : endStep(item.end));
  const script: FakeScript = {
    replies,
    afterInitialize: s.afterInitialize.map((line, i) => ({ chunk: { parts: [renderLine(line, `I${i}`)] } })),
    alongReply: {
      "thread/start": {
        parts: s.alongThreadStart.lines.map((line, i) => renderLine(line, `S${i}`)),
        cuts: s.alongThreadStart.cuts,
      },
      "turn/start": { parts: items.slice(0, along).map(part), cuts: s.alongTurnStart.cuts },
    },
    turn,
  };
  if (s.onInterrupt === "exit") script.onInterrupt = [{ exit: { code: 0 } }];
  else if (s.onInterrupt === "none") script.onInterrupt = [];
  else if (s.onInterrupt === "completed") script.onInterrupt = [fakeSteps.turnCompleted("completed")];
  return script;
}
