/** fast-check generators of {@link Scenario}s: random sequences of frames, chunkings, exits and aborts. */
import type { FakeDeparture } from "../../src/testkit/fake-script.js";
import fc from "fast-check";
import { DEFAULT_MAX_NESTING_DEPTH } from "../../src/jsonl/json-nesting.js";
import { expectationOf } from "./stream-oracle.js";
import {
  FOREIGN_USAGE_BASE,
  FUZZ_MAX_LINE_BYTES,
  OTHER_ITEM_TYPES,
  SERVER_REQUEST_METHODS,
  TOOL_ITEM_TYPES,
  type Caller,
  type End,
  type Line,
  type Pause,
  type Reply,
  type Scenario,
  type Scope,
} from "./stream-model.js";

export interface ScenarioOptions {
  /** The client's line cap the scenario is written for. */
  maxLineBytes?: number;
  /** Longest turn, in lines. */
  maxTurnLines?: number;
  /** Whether a handshake request may go unanswered (costs the request deadline). Default true. */
  unansweredRequests?: boolean;
}

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const itemId = (prefix: string) => fc.constantFrom(`${prefix}-1`, `${prefix}-2`, `${prefix}-3`);

/** Lines that name no owned turn: valid before the thread exists. */
function neutralLine(maxLineBytes: number): fc.Arbitrary<Line> {
  return fc.oneof(
    w(
      3,
      fc.record({
        t: fc.constant("global" as const),
        method: fc.constantFrom("account/rateLimits/updated" as const, "configWarning" as const),
      }),
    ),
    w(2, fc.constant<Line>({ t: "unknownMethod" })),
    w(1, fc.constant<Line>({ t: "noShape" })),
    w(
      3,
      fc.record({
        t: fc.constant("request" as const),
        method: fc.constantFrom(...SERVER_REQUEST_METHODS),
        mcpApproval: fc.boolean(),
      }),
    ),
    w(
      2,
      fc.record({
        t: fc.constant("stray" as const),
        kind: fc.constantFrom(
          "unknownId" as const,
          "stringId" as const,
          "nullIdError" as const,
          "duplicate" as const,
        ),
      }),
    ),
    w(
      1,
      fc.record({
        t: fc.constant("invalid" as const),
        kind: fc.constantFrom("malformed" as const, "array" as const, "number" as const),
      }),
    ),
    w(
      1,
      fc.record({
        t: fc.constant("padded" as const),
        bytes: fc.constantFrom(100, maxLineBytes - 1, maxLineBytes, maxLineBytes + 1, maxLineBytes * 3),
      }),
    ),
    w(
      1,
      fc.record({
        t: fc.constant("nested" as const),
        depth: fc.constantFrom(3, 100, DEFAULT_MAX_NESTING_DEPTH, DEFAULT_MAX_NESTING_DEPTH + 1, 3000),
        request: fc.boolean(),
      }),
    ),
  );
}

/** Lines about a turn of `scopes`. */
function scopedLine(scopes: Scope[]): fc.Arbitrary<Line> {
  const scope = fc.constantFrom(...scopes);
  const foreignScopes = scopes.filter((s): s is Exclude<Scope, "owned"> => s !== "owned");
  const arbitraries: { weight: number; arbitrary: fc.Arbitrary<Line> }[] = [
    w(1, fc.record({ t: fc.constant("turnStarted" as const), scope })),
    w(4, fc.record({ t: fc.constant("delta" as const), scope, item: itemId("msg") })),
    w(
      3,
      fc.record({
        t: fc.constant("message" as const),
        scope,
        item: itemId("msg"),
        phase: fc.constantFrom("final_answer" as const, "commentary" as const, null),
        bare: fc.boolean(),
      }),
    ),
    w(
      4,
      fc.record({
        t: fc.constant("tool" as const),
        scope,
        phase: fc.constantFrom("started" as const, "completed" as const),
        item: itemId("tool"),
        itemType: fc.constantFrom(...TOOL_ITEM_TYPES),
      }),
    ),
    w(
      2,
      fc.record({
        t: fc.constant("otherItem" as const),
        scope,
        phase: fc.constantFrom("started" as const, "completed" as const),
        item: itemId("item"),
        itemType: fc.constantFrom(...OTHER_ITEM_TYPES),
      }),
    ),
    w(
      2,
      fc
        .record({ t: fc.constant("usage" as const), scope })
        .chain((l) =>
          fc
            .integer({ min: 1, max: 999_999 })
            .map((n) => ({ ...l, total: l.scope === "owned" ? n : FOREIGN_USAGE_BASE + n })),
        ),
    ),
    w(1, fc.record({ t: fc.constant("error" as const), scope, willRetry: fc.boolean() })),
  ];
  if (foreignScopes.length > 0) {
    arbitraries.push(
      w(
        2,
        fc.record({
          t: fc.constant("turnCompleted" as const),
          scope: fc.constantFrom(...foreignScopes),
          status: fc.constantFrom("completed" as const, "failed" as const),
        }) as fc.Arbitrary<Line>,
      ),
    );
  }
  if (scopes.includes("owned")) {
    const bytes = fc.array(fc.constantFrom(0xff, 0xfe, 0xc3, 0xe2, 0x82, 0xf0, 0x9f, 0x98, 0x80, 0x41), {
      minLength: 1,
      maxLength: 5,
    });
    arbitraries.push(
      w(
        1,
        fc.record({
          t: fc.constant("badUtf8Delta" as const),
          item: itemId("msg"),
          bytes,
        }) as fc.Arbitrary<Line>,
      ),
    );
  }
  return fc.oneof(...arbitraries);
}

const replyArbitrary = (unanswered: boolean): fc.Arbitrary<Reply> =>
  fc.oneof(
    { withCrossShrink: true },
    w(80, fc.constant<Reply>("ok")),
    w(4, fc.constant<Reply>("error")),
    w(2, fc.constant<Reply>("exit")),
    w(1, fc.constant<Reply>("exit-close-after")),
    w(1, fc.constant<Reply>("exit-together")),
    w(1, fc.constant<Reply>("exit-keep-open")),
    w(unanswered ? 1 : 0, fc.constant<Reply>("noReply")),
  );

const end: fc.Arbitrary<End> = fc.oneof(
  { withCrossShrink: true },
  w(
    12,
    fc.record({
      t: fc.constant("turnCompleted" as const),
      status: fc.constantFrom(
        "completed" as const,
        "completed" as const,
        "failed" as const,
        "interrupted" as const,
        "paused" as const,
      ),
      error: fc.boolean(),
      items: fc.boolean(),
    }),
  ),
  w(
    3,
    fc.record({
      t: fc.constant("exit" as const),
      code: fc.constantFrom(0, 1, 101),
      stdout: fc.constantFrom<FakeDeparture>(
        "close-first",
        "close-first",
        "close-after",
        "together",
        "keep-open",
      ),
    }),
  ),
  w(1, fc.constant<End>({ t: "hang" })),
  w(2, fc.constant<End>({ t: "silent" })),
);

const caller: fc.Arbitrary<Caller> = fc.oneof(
  { withCrossShrink: true },
  w(
    8,
    fc.record({
      t: fc.constant("none" as const),
      api: fc.constantFrom("streamed" as const, "streamed" as const, "run" as const),
    }),
  ),
  w(
    1,
    fc.record({
      t: fc.constant("abortBefore" as const),
      api: fc.constantFrom("streamed" as const, "run" as const),
    }),
  ),
  w(4, fc.record({ t: fc.constant("abortAfterEvents" as const), n: fc.integer({ min: 1, max: 12 }) })),
  w(1, fc.record({ t: fc.constant("breakAfterEvents" as const), n: fc.integer({ min: 1, max: 12 }) })),
  w(2, fc.record({ t: fc.constant("abortAfterTurns" as const), n: fc.integer({ min: 1, max: 20 }) })),
);

const cuts = (max: number) => fc.array(fc.integer({ min: 1, max }), { maxLength: 2 });
const pause: fc.Arbitrary<Pause> = fc.constantFrom<Pause>("none", "none", "none", "awaitReply", "delay");

/** A caller that is sure to end a session the peer leaves open. */
function ending(c: Caller): Caller {
  if (c.t === "abortAfterTurns") return c;
  if (c.t === "breakAfterEvents") return { t: "breakAfterEvents", n: 1 };
  if (c.t === "none" && c.api === "run") return { t: "abortAfterTurns", n: 5 };
  if (c.t === "abortBefore") return c;
  return { t: "abortAfterEvents", n: 1 };
}

/** Random scenarios; one the peer leaves open always has a caller that ends it. */
export function scenarioArbitrary(options: ScenarioOptions = {}): fc.Arbitrary<Scenario> {
  const maxLineBytes = options.maxLineBytes ?? FUZZ_MAX_LINE_BYTES;
  const reply = replyArbitrary(options.unansweredRequests ?? true);
  const beforeTurn = fc.oneof(w(3, neutralLine(maxLineBytes)), w(2, scopedLine(["foreignThread"])));
  const inTurn = fc.oneof(
    w(2, neutralLine(maxLineBytes)),
    w(5, scopedLine(["owned", "owned", "foreignThread", "otherTurn"])),
  );
  return fc
    .record({
      replies: fc.record({ initialize: reply, threadStart: reply, turnStart: reply }),
      afterInitialize: fc.array(beforeTurn, { maxLength: 3 }),
      alongThreadStart: fc.record({ lines: fc.array(beforeTurn, { maxLength: 3 }), cuts: cuts(400) }),
      turn: fc.array(inTurn, { maxLength: options.maxTurnLines ?? 14 }),
      endAt: fc.nat({ max: 20 }),
      end,
      alongTurnStart: fc.record({ count: fc.nat({ max: 4 }), cuts: cuts(500) }),
      groups: fc.array(fc.record({ size: fc.integer({ min: 1, max: 4 }), cuts: cuts(700), pause }), {
        maxLength: 8,
      }),
      onInterrupt: fc.constantFrom(
        "default" as const,
        "default" as const,
        "exit" as const,
        "none" as const,
        "completed" as const,
      ),
      caller,
    })
    .map((s) =>
      expectationOf(s, maxLineBytes).natural.outcome === "open" ? { ...s, caller: ending(s.caller) } : s,
    );
}
