import { describe, expect, it } from "vitest";
import { TurnEventMapper } from "../../src/codex/turn/event-mapper.js";
import { toolTitle } from "../../src/codex/turn/tool-items.js";
import { subtractUsage, usageFromBreakdown } from "../../src/codex/turn/token-usage.js";
import type { EventBody } from "../../src/harness/events.js";

const ZERO_USAGE = {
  inputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  totalTokens: 0,
};

const THREAD = "thr_1";
const TURN = "turn_1";

function frameOf(method: string, params: Record<string, unknown>): Record<string, unknown> {
  return { method, params, emittedAtMs: 0 };
}

/** A mapper that owns THREAD and TURN. */
function owned(options: { turn?: boolean } = {}): TurnEventMapper {
  const mapper = new TurnEventMapper();
  mapper.ownership.adoptThreadResult({ thread: { id: THREAD }, model: "gpt-test" }, null);
  if (options.turn !== false) mapper.ownership.adoptTurn(TURN);
  return mapper;
}

function map(mapper: TurnEventMapper, method: string, params: Record<string, unknown>) {
  return mapper.mapNotification(method, params, frameOf(method, params));
}

function events(mapper: TurnEventMapper, method: string, params: Record<string, unknown>): EventBody[] {
  return map(mapper, method, params).events;
}

const ids = { threadId: THREAD, turnId: TURN };
const item = (phase: "started" | "completed", it: Record<string, unknown>) =>
  [`item/${phase}`, { item: it, ...ids }] as const;

/** `turn/completed` (completed) of the owned turn carrying `items`. */
const completedWith = (items: Record<string, unknown>[]) =>
  ["turn/completed", { threadId: THREAD, turn: { id: TURN, status: "completed", items } }] as const;

/** A completed agent message item of the owned turn; returns its events. */
function agentMessage(mapper: TurnEventMapper, id: string, text: string, phase: string): EventBody[] {
  return events(mapper, ...item("completed", { type: "agentMessage", id, text, phase }));
}

function breakdown(b: Partial<Record<string, number>>): Record<string, number> {
  return {
    totalTokens: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    outputTokens: 0,
    reasoningOutputTokens: 0,
    ...b,
  };
}

function tokenUsage(
  total: Partial<Record<string, number>>,
  last: Partial<Record<string, number>>,
  turnId: string | null = TURN,
) {
  return {
    threadId: THREAD,
    ...(turnId !== null ? { turnId } : {}),
    tokenUsage: { total: breakdown(total), last: breakdown(last), modelContextWindow: 258400 },
  };
}

describe("turn lifecycle", () => {
  it("maps turn/started to turn.started and adopts the turn id when none is known yet", () => {
    const mapper = owned({ turn: false });
    const result = map(mapper, "turn/started", {
      threadId: THREAD,
      turn: { id: TURN, status: "inProgress" },
    });
    expect(result.events).toEqual([{ type: "turn.started", threadId: THREAD }]);
    expect(result.ended).toBeUndefined();
    expect(mapper.turnId).toBe(TURN);
  });

  it("keeps the turn id from the acknowledgement over a later one", () => {
    const mapper = owned();
    mapper.ownership.adoptTurn("other");
    expect(mapper.turnId).toBe(TURN);
  });

  it("maps the owned turn/completed to an end with its status and error", () => {
    const mapper = owned();
    const error = {
      message: "boom",
      codexErrorInfo: { httpConnectionFailed: { httpStatusCode: 500 } },
      additionalDetails: "d",
    };
    const result = map(mapper, "turn/completed", {
      threadId: THREAD,
      turn: { id: TURN, status: "failed", items: [], error },
    });
    expect(result.ended).toEqual({ status: "failed", error });
    expect(result.events).toEqual([expect.objectContaining({ type: "native", method: "turn/completed" })]);
    expect(mapper.turnEnded).toBe(true);
  });

  it("keeps a string codexErrorInfo and fills missing error fields with null", () => {
    const mapper = owned();
    const result = map(mapper, "turn/completed", {
      threadId: THREAD,
      turn: {
        id: TURN,
        status: "failed",
        error: { message: "unauthorized", codexErrorInfo: "unauthorized" },
      },
    });
    expect(result.ended).toEqual({
      status: "failed",
      error: { message: "unauthorized", codexErrorInfo: "unauthorized", additionalDetails: null },
    });
  });

  it("ends only once: a second owned turn/completed is a foreign passthrough", () => {
    const mapper = owned();
    map(mapper, "turn/completed", { threadId: THREAD, turn: { id: TURN, status: "completed", items: [] } });
    const again = map(mapper, "turn/completed", {
      threadId: THREAD,
      turn: { id: TURN, status: "failed", items: [] },
    });
    expect(again.ended).toBeUndefined();
    expect(again.events).toEqual([expect.objectContaining({ type: "passthrough", reason: "foreign" })]);
  });
});

describe("text", () => {
  it("maps agent message deltas to text.delta and the completed item to text.completed", () => {
    const mapper = owned();
    expect(events(mapper, ...item("started", { type: "agentMessage", id: "m1", text: "" }))).toEqual([
      {
        type: "item",
        phase: "started",
        itemId: "m1",
        itemType: "agentMessage",
        item: { type: "agentMessage", id: "m1", text: "" },
      },
    ]);
    expect(events(mapper, "item/agentMessage/delta", { itemId: "m1", delta: "Hel", ...ids })).toEqual([
      { type: "text.delta", itemId: "m1", text: "Hel" },
    ]);
    expect(events(mapper, "item/agentMessage/delta", { itemId: "m1", delta: "lo", ...ids })).toEqual([
      { type: "text.delta", itemId: "m1", text: "lo" },
    ]);
    expect(agentMessage(mapper, "m1", "Hello", "final_answer")).toEqual([
      { type: "text.completed", itemId: "m1", text: "Hello" },
    ]);
    expect(mapper.finalMessage).toBe("Hello");
  });

  it("uses the streamed text when the completed agent message carries none", () => {
    const mapper = owned();
    events(mapper, "item/agentMessage/delta", { itemId: "m1", delta: "Hi ", ...ids });
    events(mapper, "item/agentMessage/delta", { itemId: "m1", delta: "there", ...ids });
    expect(events(mapper, ...item("completed", { type: "agentMessage", id: "m1" }))).toEqual([
      { type: "text.completed", itemId: "m1", text: "Hi there" },
    ]);
    expect(mapper.finalMessage).toBe("Hi there");
  });

  it("keeps a foreign delta out of the owned message's streamed text, even under the same item id", () => {
    const mapper = owned();
    events(mapper, "item/agentMessage/delta", { itemId: "m1", delta: "Hi ", ...ids });
    const foreign = [
      { itemId: "m1", delta: "theirs ", threadId: THREAD, turnId: "turn_other" },
      { itemId: "m1", delta: "elsewhere ", threadId: "thr_other", turnId: TURN },
    ];
    for (const params of foreign)
      expect(events(mapper, "item/agentMessage/delta", params)).toEqual([
        { type: "passthrough", reason: "foreign", native: frameOf("item/agentMessage/delta", params) },
      ]);
    events(mapper, "item/agentMessage/delta", { itemId: "m1", delta: "there", ...ids });
    expect(events(mapper, ...item("completed", { type: "agentMessage", id: "m1" }))).toEqual([
      { type: "text.completed", itemId: "m1", text: "Hi there" },
    ]);
    expect(mapper.finalMessage).toBe("Hi there");
  });
});

describe("finalMessage", () => {
  it("prefers the last final_answer message over a later commentary message", () => {
    const mapper = owned();
    agentMessage(mapper, "a", "first answer", "final_answer");
    agentMessage(mapper, "b", "the answer", "final_answer");
    agentMessage(mapper, "c", "commentary", "commentary");
    expect(mapper.finalMessage).toBe("the answer");
  });

  it("falls back to the last completed message when none has the final_answer phase", () => {
    const mapper = owned();
    events(mapper, ...item("completed", { type: "agentMessage", id: "a", text: "one" }));
    events(mapper, ...item("completed", { type: "agentMessage", id: "b", text: "two", phase: null }));
    expect(mapper.finalMessage).toBe("two");
  });

  it("falls back to the agentMessage items of turn/completed when no message completed", () => {
    const mapper = owned();
    expect(mapper.finalMessage).toBeNull();
    map(
      mapper,
      ...completedWith([
        { type: "userMessage", id: "u", content: [] },
        { type: "agentMessage", id: "x", text: "from items" },
        { type: "reasoning", id: "r", summary: [] },
      ]),
    );
    expect(mapper.finalMessage).toBe("from items");
  });

  it("prefers a final_answer message among the turn/completed items too", () => {
    const mapper = owned();
    map(
      mapper,
      ...completedWith([
        { type: "agentMessage", id: "a", text: "the answer", phase: "final_answer" },
        { type: "agentMessage", id: "b", text: "a trailing note", phase: "commentary" },
      ]),
    );
    expect(mapper.finalMessage).toBe("the answer");
  });

  it("prefers a completed message over the turn/completed items", () => {
    const mapper = owned();
    events(mapper, ...item("completed", { type: "agentMessage", id: "m", text: "streamed" }));
    map(mapper, "turn/completed", {
      threadId: THREAD,
      turn: { id: TURN, status: "completed", items: [{ type: "agentMessage", id: "x", text: "items" }] },
    });
    expect(mapper.finalMessage).toBe("streamed");
  });

  it("is null when nothing was said", () => {
    const mapper = owned();
    map(mapper, "turn/completed", { threadId: THREAD, turn: { id: TURN, status: "completed", items: [] } });
    expect(mapper.finalMessage).toBeNull();
  });
});

describe("reasoning", () => {
  it("maps summary deltas to reasoning.delta kind summary", () => {
    expect(
      events(owned(), "item/reasoning/summaryTextDelta", {
        itemId: "r1",
        delta: "think",
        summaryIndex: 0,
        ...ids,
      }),
    ).toEqual([{ type: "reasoning.delta", itemId: "r1", text: "think", kind: "summary" }]);
  });

  it("maps raw reasoning text deltas to reasoning.delta kind content", () => {
    expect(
      events(owned(), "item/reasoning/textDelta", { itemId: "r1", delta: "raw", contentIndex: 0, ...ids }),
    ).toEqual([{ type: "reasoning.delta", itemId: "r1", text: "raw", kind: "content" }]);
  });

  it("maps a completed reasoning item to reasoning.completed with its summary strings", () => {
    expect(
      events(
        owned(),
        ...item("completed", { type: "reasoning", id: "r1", summary: ["a", 3, "b"], content: [] }),
      ),
    ).toEqual([{ type: "reasoning.completed", itemId: "r1", summary: ["a", "b"] }]);
  });

  it("maps a started reasoning item to a plain item event", () => {
    expect(events(owned(), ...item("started", { type: "reasoning", id: "r1", summary: [] }))).toEqual([
      expect.objectContaining({ type: "item", phase: "started", itemType: "reasoning", itemId: "r1" }),
    ]);
  });
});

describe("tools", () => {
  const cases = [
    {
      kind: "command" as const,
      item: { type: "commandExecution", id: "c1", command: "ls -la", cwd: "/tmp", status: "inProgress" },
      done: {
        type: "commandExecution",
        id: "c1",
        command: "ls -la",
        status: "completed",
        exitCode: 0,
        aggregatedOutput: "x",
      },
      title: "ls -la",
      exitCode: 0,
    },
    {
      kind: "fileChange" as const,
      item: {
        type: "fileChange",
        id: "f1",
        changes: [
          { path: "a.ts", kind: "add" },
          { path: "b.ts", kind: "update" },
        ],
        status: "inProgress",
      },
      done: {
        type: "fileChange",
        id: "f1",
        changes: [{ path: "a.ts" }, { path: "b.ts" }],
        status: "completed",
      },
      title: "a.ts, b.ts",
      exitCode: null,
    },
    {
      kind: "mcp" as const,
      item: {
        type: "mcpToolCall",
        id: "p1",
        server: "docs",
        tool: "search",
        arguments: {},
        status: "inProgress",
      },
      done: {
        type: "mcpToolCall",
        id: "p1",
        server: "docs",
        tool: "search",
        status: "failed",
        error: { message: "x" },
      },
      title: "docs.search",
      exitCode: null,
    },
    {
      kind: "webSearch" as const,
      item: { type: "webSearch", id: "w1", query: "vitest docs" },
      done: { type: "webSearch", id: "w1", query: "vitest docs" },
      title: "vitest docs",
      exitCode: null,
    },
  ];

  it.each(cases)("maps $item.type items to tool.started / tool.completed ($kind)", (c) => {
    const mapper = owned();
    expect(events(mapper, ...item("started", c.item))).toEqual([
      { type: "tool.started", itemId: c.item.id, tool: c.kind, title: c.title, item: c.item },
    ]);
    expect(events(mapper, ...item("completed", c.done)).filter((e) => e.type !== "file.changed")).toEqual([
      {
        type: "tool.completed",
        itemId: c.item.id,
        tool: c.kind,
        title: c.title,
        status: (c.done as { status?: string }).status ?? null,
        exitCode: c.exitCode,
        item: c.done,
      },
    ]);
  });

  it("maps streamed command output to tool.output", () => {
    expect(
      events(owned(), "item/commandExecution/outputDelta", { itemId: "c1", delta: "line\n", ...ids }),
    ).toEqual([{ type: "tool.output", itemId: "c1", tool: "command", text: "line\n" }]);
  });

  it("maps file-change output to tool.output", () => {
    expect(
      events(owned(), "item/fileChange/outputDelta", { itemId: "f1", delta: "patched", ...ids }),
    ).toEqual([{ type: "tool.output", itemId: "f1", tool: "fileChange", text: "patched" }]);
  });

  it("maps MCP tool-call progress to tool.output", () => {
    expect(events(owned(), "item/mcpToolCall/progress", { itemId: "p1", message: "50%", ...ids })).toEqual([
      { type: "tool.output", itemId: "p1", tool: "mcp", text: "50%" },
    ]);
  });

  it("keeps codex's dynamicToolCall items as item events: an app tool's pair comes from its run", () => {
    const mapper = owned();
    const started = {
      type: "dynamicToolCall",
      id: "call_1",
      tool: "lookup",
      arguments: {},
      status: "inProgress",
    };
    expect(events(mapper, ...item("started", started))).toEqual([
      { type: "item", phase: "started", itemId: "call_1", itemType: "dynamicToolCall", item: started },
    ]);
    expect(mapper.openToolCount).toBe(0);
  });

  it("titles tool items with sensible fallbacks", () => {
    expect(toolTitle({ type: "commandExecution" })).toBe("command");
    expect(toolTitle({ type: "fileChange", changes: [] })).toBe("file change");
    expect(toolTitle({ type: "mcpToolCall" })).toBe("?.?");
    expect(toolTitle({ type: "webSearch" })).toBe("web search");
  });
});

describe("other items", () => {
  it.each(["userMessage", "plan", "contextCompaction", "imageView", "someFutureItem"])(
    "maps a %s item to an item event",
    (type) => {
      const it = { type, id: "i1", extra: { nested: true } };
      expect(events(owned(), ...item("completed", it))).toEqual([
        { type: "item", phase: "completed", itemId: "i1", itemType: type, item: it },
      ]);
    },
  );

  it("maps an item without a type or id tolerantly", () => {
    expect(events(owned(), ...item("started", { foo: 1 }))).toEqual([
      { type: "item", phase: "started", itemId: null, itemType: "unknown", item: { foo: 1 } },
    ]);
  });

  it("maps an item notification whose item is not an object to an unknown passthrough", () => {
    expect(events(owned(), "item/started", { item: "nope", ...ids })).toEqual([
      expect.objectContaining({ type: "passthrough", reason: "unknown" }),
    ]);
  });
});

describe("usage", () => {
  it("of a resumed thread's turn is that turn's alone: codex 0.171's usage before it names the previous turn", () => {
    const mapper = owned({ turn: false });
    // codex restores the thread's usage (its earlier turn used 110) before the owned turn exists
    expect(
      events(
        mapper,
        "thread/tokenUsage/updated",
        tokenUsage({ inputTokens: 100, outputTokens: 10, totalTokens: 110 }, {}, "turn-before"),
      ),
    ).toEqual([expect.objectContaining({ type: "native", method: "thread/tokenUsage/updated" })]);
    mapper.ownership.adoptTurn(TURN);
    expectFollowUpUsage(mapper);
    expect(mapper.usage?.totalTokens).toBe(330);
  });

  it("of a resumed thread's turn is that turn's alone: codex 0.87-0.134 restore its usage inside the turn", () => {
    const mapper = new TurnEventMapper(undefined, { resumed: true });
    mapper.ownership.adoptThreadResult({ thread: { id: THREAD }, model: "gpt-test" }, null);
    events(mapper, "turn/started", { threadId: THREAD, turn: { id: TURN } });
    events(mapper, ...item("completed", { type: "userMessage", id: "u1", content: [] }));
    // the thread's stored usage (its earlier turn used 110), after turn/started and before the model answered
    const restored = { inputTokens: 100, outputTokens: 10, totalTokens: 110 };
    expect(events(mapper, "thread/tokenUsage/updated", tokenUsage(restored, restored))).toEqual([
      expect.objectContaining({ type: "native", method: "thread/tokenUsage/updated" }),
    ]);
    expect(mapper.usage).toBeNull();
    events(mapper, ...item("started", { type: "agentMessage", id: "m1", text: "" }));
    expectFollowUpUsage(mapper);
    expect(mapper.usage?.totalTokens).toBe(330);
  });

  it("of a new thread's first request counts, even when it arrives before any item of the model", () => {
    const mapper = owned();
    const request = { inputTokens: 100, outputTokens: 10, totalTokens: 110 };
    expect(events(mapper, "thread/tokenUsage/updated", tokenUsage(request, request))).toEqual([
      expect.objectContaining({ type: "usage", usage: expect.objectContaining({ totalTokens: 110 }) }),
    ]);
  });

  it("of a resumed thread's turn counts an update after the model answered, though its total equals its last", () => {
    const mapper = new TurnEventMapper(undefined, { resumed: true });
    mapper.ownership.adoptThreadResult({ thread: { id: THREAD }, model: "gpt-test" }, null);
    events(mapper, "turn/started", { threadId: THREAD, turn: { id: TURN } });
    events(mapper, ...item("started", { type: "reasoning", id: "r1" }));
    // a resumed thread with no stored usage (codex 0.72 restores none): the first request is all of it
    const request = { inputTokens: 300, outputTokens: 30, totalTokens: 330 };
    expect(events(mapper, "thread/tokenUsage/updated", tokenUsage(request, request))).toEqual([
      expect.objectContaining({ type: "usage", usage: expect.objectContaining({ totalTokens: 330 }) }),
    ]);
  });

  it("without usage before the turn, the first update's total less its last request is the baseline", () => {
    const mapper = owned();
    expectFollowUpUsage(mapper);
    const [next] = events(
      mapper,
      "thread/tokenUsage/updated",
      tokenUsage(
        { inputTokens: 900, outputTokens: 90, totalTokens: 990 },
        { inputTokens: 500, outputTokens: 50, totalTokens: 550 },
      ),
    );
    expect(next).toMatchObject({
      type: "usage",
      usage: { inputTokens: 800, outputTokens: 80, totalTokens: 880 },
    });
  });

  it("reports usage summed over several model requests: total minus the thread baseline, and last", () => {
    const mapper = owned({ turn: false });
    // thread usage before the turn (e.g. a resumed thread): the baseline
    expect(
      events(
        mapper,
        "thread/tokenUsage/updated",
        tokenUsage({ inputTokens: 100, totalTokens: 100 }, {}, null),
      ),
    ).toEqual([expect.objectContaining({ type: "native", method: "thread/tokenUsage/updated" })]);
    expect(mapper.usage).toBeNull();
    mapper.ownership.adoptTurn(TURN);
    const first = events(
      mapper,
      "thread/tokenUsage/updated",
      tokenUsage(
        {
          inputTokens: 1100,
          cachedInputTokens: 200,
          cacheWriteInputTokens: 300,
          outputTokens: 50,
          reasoningOutputTokens: 10,
          totalTokens: 1150,
        },
        {
          inputTokens: 1000,
          cachedInputTokens: 200,
          cacheWriteInputTokens: 300,
          outputTokens: 50,
          reasoningOutputTokens: 10,
          totalTokens: 1050,
        },
      ),
    );
    const firstUsage = {
      inputTokens: 1000,
      cacheReadTokens: 200,
      cacheWriteTokens: 300,
      outputTokens: 50,
      reasoningTokens: 10,
      totalTokens: 1050,
    };
    expect(first).toEqual([
      {
        type: "usage",
        usage: firstUsage,
        last: firstUsage,
        modelContextWindow: 258400,
      },
    ]);
    const second = events(
      mapper,
      "thread/tokenUsage/updated",
      tokenUsage(
        {
          inputTokens: 2300,
          cachedInputTokens: 1200,
          cacheWriteInputTokens: 400,
          outputTokens: 80,
          reasoningOutputTokens: 15,
          totalTokens: 2380,
        },
        {
          inputTokens: 1200,
          cachedInputTokens: 1000,
          cacheWriteInputTokens: 100,
          outputTokens: 30,
          reasoningOutputTokens: 5,
          totalTokens: 1230,
        },
      ),
    );
    const expectedTurn = {
      inputTokens: 2200,
      cacheReadTokens: 1200,
      cacheWriteTokens: 400,
      outputTokens: 80,
      reasoningTokens: 15,
      totalTokens: 2280,
    };
    expect(second).toEqual([
      {
        type: "usage",
        usage: expectedTurn,
        last: {
          inputTokens: 1200,
          cacheReadTokens: 1000,
          cacheWriteTokens: 100,
          outputTokens: 30,
          reasoningTokens: 5,
          totalTokens: 1230,
        },
        modelContextWindow: 258400,
      },
    ]);
    expect(mapper.usage).toEqual(expectedTurn);
  });

  it("counts usage that arrives after turn/completed (Codex sends it late)", () => {
    const mapper = owned();
    map(mapper, "turn/completed", { threadId: THREAD, turn: { id: TURN, status: "completed", items: [] } });
    expect(
      events(
        mapper,
        "thread/tokenUsage/updated",
        tokenUsage({ inputTokens: 5, totalTokens: 5 }, { inputTokens: 5, totalTokens: 5 }),
      ),
    ).toEqual([expect.objectContaining({ type: "usage" })]);
    expect(mapper.usage?.totalTokens).toBe(5);
  });

  it("passes a usage notification without tokenUsage through as unknown and keeps usage null", () => {
    const mapper = owned();
    expect(events(mapper, "thread/tokenUsage/updated", { threadId: THREAD, turnId: TURN })).toEqual([
      expect.objectContaining({ type: "passthrough", reason: "unknown" }),
    ]);
    expect(mapper.usage).toBeNull();
  });

  it("reads breakdowns tolerantly and never subtracts below zero", () => {
    expect(usageFromBreakdown({ inputTokens: 3, outputTokens: "x", totalTokens: Number.NaN })).toEqual({
      inputTokens: 3,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 0,
      reasoningTokens: 0,
      totalTokens: 0,
    });
    expect(usageFromBreakdown(null)).toEqual(ZERO_USAGE);
    expect(
      subtractUsage({ ...ZERO_USAGE, inputTokens: 1 }, { ...ZERO_USAGE, inputTokens: 5, totalTokens: 2 }),
    ).toEqual(ZERO_USAGE);
  });

  it("counts a negative token count as 0, as Claude Code's usage does", () => {
    expect(usageFromBreakdown({ inputTokens: -5, outputTokens: -1, totalTokens: -6 })).toEqual(ZERO_USAGE);
  });
});

describe("errors and warnings", () => {
  const retryError = (willRetry: boolean) => ({
    error: {
      message: "Reconnecting... 1/5",
      codexErrorInfo: { responseStreamDisconnected: { httpStatusCode: 502 } },
      additionalDetails: null,
    },
    willRetry,
    ...ids,
  });

  it("maps an error with willRetry:true to a warning that is not recorded as the turn's error", () => {
    const mapper = owned();
    const params = retryError(true);
    expect(events(mapper, "error", params)).toEqual([
      { type: "warning", method: "error", message: "Reconnecting... 1/5", native: frameOf("error", params) },
    ]);
    expect(mapper.lastError).toBeNull();
  });

  it("records an error with willRetry:false as the turn's last error (and still emits a warning)", () => {
    const mapper = owned();
    expect(events(mapper, "error", retryError(false))).toEqual([
      expect.objectContaining({ type: "warning", method: "error" }),
    ]);
    expect(mapper.lastError).toEqual({
      message: "Reconnecting... 1/5",
      codexErrorInfo: { responseStreamDisconnected: { httpStatusCode: 502 } },
      additionalDetails: null,
    });
  });

  it.each([
    "warning",
    "configWarning",
    "deprecationNotice",
    "guardianWarning",
    "windows/worldWritableWarning",
  ])("maps %s to a warning with its text", (method) => {
    expect(events(owned(), method, { message: "careful" })).toEqual([
      { type: "warning", method, message: "careful", native: frameOf(method, { message: "careful" }) },
    ]);
  });

  it("falls back to other text fields, then to the params, for a warning message", () => {
    expect(events(owned(), "configWarning", { summary: "s", details: "d" })[0]).toMatchObject({
      message: "s",
    });
    expect(events(owned(), "warning", { code: 7 })[0]).toMatchObject({ message: '{"code":7}' });
  });
});

describe("unknown, known-without-meaning, and foreign notifications", () => {
  it("passes an unknown method through as unknown, with the frame exactly as received", () => {
    const params = { threadId: THREAD, something: [1, 2] };
    expect(events(owned(), "future/method", params)).toEqual([
      { type: "passthrough", reason: "unknown", native: frameOf("future/method", params) },
    ]);
  });

  it("maps a known method without harness meaning to a native event", () => {
    expect(events(owned(), "thread/status/changed", { threadId: THREAD, status: { type: "idle" } })).toEqual([
      {
        type: "native",
        method: "thread/status/changed",
        params: { threadId: THREAD, status: { type: "idle" } },
      },
    ]);
  });

  it("maps a legacy codex/event/* notification to a native event marked legacy, never a passthrough", () => {
    const params = {
      id: "",
      msg: { type: "agent_message_delta", delta: "Hel" },
      conversationId: THREAD,
    };
    const mapper = owned();
    expect(events(mapper, "codex/event/agent_message_delta", params)).toEqual([
      { type: "native", method: "codex/event/agent_message_delta", params, legacy: true },
    ]);
    // a duplicate of the v2 delta: it does not add to the turn's text
    expect(mapper.finalMessage).toBeNull();
  });

  it("follows model/rerouted", () => {
    const mapper = owned();
    events(mapper, "model/rerouted", {
      threadId: THREAD,
      turnId: TURN,
      fromModel: "gpt-test",
      toModel: "gpt-other",
    });
    expect(mapper.model).toBe("gpt-other");
  });

  /** Feeds a foreign notification and checks that nothing about the owned turn changed. */
  function expectForeign(method: string, params: Record<string, unknown>) {
    const mapper = owned();
    agentMessage(mapper, "m", "mine", "final_answer");
    events(
      mapper,
      "thread/tokenUsage/updated",
      tokenUsage({ inputTokens: 7, totalTokens: 7 }, { inputTokens: 7, totalTokens: 7 }),
    );
    const before = {
      text: mapper.finalMessage,
      usage: mapper.usage,
      model: mapper.model,
      error: mapper.lastError,
    };
    const result = map(mapper, method, params);
    expect(result.events).toEqual([
      { type: "passthrough", reason: "foreign", native: frameOf(method, params) },
    ]);
    expect(result.ended).toBeUndefined();
    expect(mapper.turnEnded).toBe(false);
    expect({
      text: mapper.finalMessage,
      usage: mapper.usage,
      model: mapper.model,
      error: mapper.lastError,
    }).toEqual(before);
    // the owned turn still ends normally afterwards
    const end = map(mapper, "turn/completed", {
      threadId: THREAD,
      turn: { id: TURN, status: "completed", items: [] },
    });
    expect(end.ended?.status).toBe("completed");
    expect(mapper.finalMessage).toBe("mine");
  }

  const other = { threadId: THREAD, turnId: "turn_other" };
  const otherThread = { threadId: "thr_other", turnId: TURN };

  it.each([
    ["text delta of another turn", "item/agentMessage/delta", { itemId: "m", delta: "x", ...other }],
    [
      "completed message of another turn",
      "item/completed",
      { item: { type: "agentMessage", id: "z", text: "not mine", phase: "final_answer" }, ...other },
    ],
    [
      "completed message of another thread",
      "item/completed",
      { item: { type: "agentMessage", id: "z", text: "not mine", phase: "final_answer" }, ...otherThread },
    ],
    [
      "usage of another turn",
      "thread/tokenUsage/updated",
      tokenUsage({ inputTokens: 999, totalTokens: 999 }, {}, "turn_other"),
    ],
    [
      "usage of another thread",
      "thread/tokenUsage/updated",
      { ...tokenUsage({ inputTokens: 999, totalTokens: 999 }, {}), threadId: "thr_other" },
    ],
    [
      "turn/completed of another turn",
      "turn/completed",
      { threadId: THREAD, turn: { id: "turn_other", status: "failed", error: { message: "x" } } },
    ],
    [
      "turn/completed of another thread",
      "turn/completed",
      { threadId: "thr_other", turn: { id: TURN, status: "completed" } },
    ],
    ["turn/started of another turn", "turn/started", { threadId: THREAD, turn: { id: "turn_other" } }],
    [
      "a non-retrying error of another turn",
      "error",
      { error: { message: "theirs" }, willRetry: false, ...other },
    ],
    ["model/rerouted of another thread", "model/rerouted", { toModel: "their-model", ...otherThread }],
    ["thread/started of another thread", "thread/started", { thread: { id: "thr_other" } }],
    ["an unknown method of another thread", "future/method", { ...otherThread }],
  ])("treats a %s as foreign and changes nothing", (_label, method, params) => {
    expectForeign(method, params as Record<string, unknown>);
  });

  it("ignores turn-scoped notifications after the owned turn ended", () => {
    const mapper = owned();
    events(mapper, ...item("completed", { type: "agentMessage", id: "m", text: "mine" }));
    map(mapper, "turn/completed", { threadId: THREAD, turn: { id: TURN, status: "completed", items: [] } });
    expect(events(mapper, ...item("completed", { type: "agentMessage", id: "n", text: "late" }))).toEqual([
      expect.objectContaining({ type: "passthrough", reason: "foreign" }),
    ]);
    expect(mapper.finalMessage).toBe("mine");
  });

  it("maps a stray response to a foreign passthrough and an unknown-shape frame to an unknown one", () => {
    const mapper = owned();
    expect(mapper.mapStray({ id: 77, result: {} }, "unmatched-response")).toEqual([
      { type: "passthrough", reason: "foreign", native: { id: 77, result: {} } },
    ]);
    expect(mapper.mapStray({ what: 1 }, "unknown-shape")).toEqual([
      { type: "passthrough", reason: "unknown", native: { what: 1 } },
    ]);
  });

  it("never throws on odd params", () => {
    const mapper = owned();
    for (const params of [null, 3, "x", [], undefined]) {
      expect(() => mapper.mapNotification("item/agentMessage/delta", params, { method: "x" })).not.toThrow();
      expect(() => mapper.mapNotification("turn/completed", params, { method: "x" })).not.toThrow();
      expect(() =>
        mapper.mapNotification("thread/tokenUsage/updated", params, { method: "x" }),
      ).not.toThrow();
    }
    expect(mapper.turnEnded).toBe(false);
  });
});

/** The owned turn's first update (thread total 440, this request 330) is a `usage` event of the turn's 330 alone. */
function expectFollowUpUsage(mapper: ReturnType<typeof owned>): void {
  const [event] = events(
    mapper,
    "thread/tokenUsage/updated",
    tokenUsage(
      { inputTokens: 400, outputTokens: 40, totalTokens: 440 },
      { inputTokens: 300, outputTokens: 30, totalTokens: 330 },
    ),
  );
  expect(event).toMatchObject({
    type: "usage",
    usage: { inputTokens: 300, outputTokens: 30, totalTokens: 330 },
  });
}
