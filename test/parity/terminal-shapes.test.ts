/**
 * The same app code, given `createCodex()` or `createClaudeCode()`, sees the same outcome for the same condition:
 * each condition is scripted on both fake peers, and the terminal frames must agree on the outcome, the
 * failure's source, the fields it carries and its details (exit code, signal, deadline), the cancellation. Each
 * stream is numbered 1..n with exactly one terminal frame last, that frame is what `result` resolves with, and
 * `run()` rejects with it.
 */
import { describe, expect, it } from "vitest";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import { TurnFailedError } from "../../src/harness/errors.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { FAKE_THREAD_ID, FAKE_TURN_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import {
  PARITY_HARNESSES,
  terminalShape,
  type ParityHarness,
  type ParityScripts,
} from "../helpers/parity-harnesses.js";
import { expectWellFormed } from "../helpers/well-formed.js";

/** Longer than any test: only a cancel, a deadline or the end of the fake ends a turn waiting for it. */
const HANG_MS = 60_000;

interface Condition {
  name: string;
  scripts: ParityScripts;
  /** Added to the call's options. */
  call?: Record<string, unknown>;
  /** When the app cancels: at once, or at the turn's `turn.started`. */
  cancelAt?: "start" | "turn.started";
  /** The client's `interruptGraceMs`. */
  interruptGraceMs?: number;
  /** What both terminal shapes must say (the shapes must also equal each other). */
  expected: Record<string, unknown>;
}

function providerFailure(status: number, codexInfo: string, text: string): ParityScripts {
  const error = { message: text, codexErrorInfo: codexInfo };
  const ids = { threadId: FAKE_THREAD_ID, turnId: FAKE_TURN_ID };
  return {
    codex: {
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.notify("error", { ...ids, willRetry: false, error }),
        fakeSteps.turnCompleted("failed", { error }),
      ],
    },
    claude: { turn: [claudeSteps.init(), ...claudeSteps.apiError(status, text)] },
  };
}

/** A started turn, then `steps` on both fakes (a raw line, an exit), then a wait only a cancel ends. */
function startedThen(
  steps: ({ raw: string } | { exit: { signal?: string; code?: number } })[],
): ParityScripts {
  return {
    codex: { turn: [fakeSteps.turnStarted(), ...steps, { delayMs: HANG_MS }] },
    claude: { turn: [claudeSteps.init(), ...steps, { delayMs: HANG_MS }] },
  };
}

/** A line that is no JSON object fails the turn `parse` with the line; `errors` is for schema violations only. */
const parseFailure = {
  outcome: "failed",
  failure: { source: "parse", fields: ["line", "message", "source"] },
};

const CONDITIONS: Condition[] = [
  {
    name: "an unknown frame in a completed turn",
    scripts: {
      codex: { turn: [fakeSteps.notify("x/unknown", { a: 1 }), ...fakeSteps.textTurn("hi")] },
      claude: {
        turn: [
          claudeSteps.init(),
          { send: { type: "mystery", a: 1 } },
          ...claudeSteps.textTurn("hi").slice(1),
        ],
      },
    },
    expected: { outcome: "completed", failure: null, cancellation: null },
  },
  {
    name: "the provider failing 5xx",
    scripts: providerFailure(500, "internalServerError", "API Error: 500 overloaded"),
    expected: { outcome: "failed", failure: { source: "turn" } },
  },
  {
    name: "the provider refusing 4xx",
    scripts: providerFailure(401, "unauthorized", "API Error: 401 invalid x-api-key"),
    expected: { outcome: "failed", failure: { source: "turn" } },
  },
  { name: "a malformed frame", scripts: startedThen([{ raw: "not json\n" }]), expected: parseFailure },
  {
    name: "a frame that is no JSON object",
    scripts: startedThen([{ raw: "[1,2]\n" }]),
    expected: parseFailure,
  },
  {
    name: "the child killed by a signal mid-turn",
    scripts: startedThen([{ exit: { signal: "SIGKILL" } }]),
    expected: { outcome: "failed", failure: { source: "exit", exitCode: null, signal: "SIGKILL" } },
  },
  {
    name: "the child exiting before the turn exists",
    scripts: {
      codex: { replies: { "thread/start": { exit: { code: 1 } } } },
      claude: { startup: [{ exit: { code: 1 } }] },
    },
    expected: { outcome: "failed", failure: { source: "exit", exitCode: 1, signal: null } },
  },
  {
    name: "the turn deadline",
    scripts: startedThen([]),
    call: { timeouts: { turnMs: 100 } },
    expected: { outcome: "failed", failure: { source: "turn", timeout: { step: "turn", timeoutMs: 100 } } },
  },
  {
    name: "a cancel before the turn exists",
    scripts: startedThen([]),
    cancelAt: "start",
    expected: { outcome: "cancelled", failure: null, cancellation: { via: "before-turn", reason: "stop" } },
  },
  {
    name: "a cancel mid-turn the agent obeys",
    scripts: startedThen([]),
    cancelAt: "turn.started",
    expected: { outcome: "cancelled", cancellation: { via: "interrupted", reason: "stop" } },
  },
  {
    name: "a cancel mid-turn the agent ignores",
    scripts: {
      codex: { ...startedThen([]).codex, onInterrupt: [] },
      claude: { ...startedThen([]).claude, onInterrupt: [{ hang: true }] },
    },
    cancelAt: "turn.started",
    interruptGraceMs: 50,
    expected: { outcome: "cancelled", cancellation: { via: "killed", reason: "stop" } },
  },
];

/** The app: one streamed turn, read to its end, cancelled where the condition says. */
async function runApp(
  harness: ParityHarness,
  condition: Condition,
): Promise<{ events: HarnessEvent[]; terminal: TerminalEvent }> {
  const grace = condition.interruptGraceMs;
  const { client } = harness.make(condition.scripts, grace === undefined ? {} : { interruptGraceMs: grace });
  const session = client.runStreamed({ prompt: "hi", ...condition.call });
  if (condition.cancelAt === "start") session.cancel("stop");
  const events: HarnessEvent[] = [];
  for await (const event of session.events) {
    events.push(event);
    if (condition.cancelAt === "turn.started" && event.type === "turn.started") session.cancel("stop");
  }
  return { events, terminal: await session.result };
}

describe.each(CONDITIONS)("parity: $name", (condition) => {
  it("ends both harnesses' streams with the same terminal shape, once, last, as result says", async () => {
    const shapes: Record<string, unknown>[] = [];
    for (const harness of PARITY_HARNESSES) {
      const { events, terminal } = await runApp(harness, condition);
      expectWellFormed(events, { harness: harness.name });
      expect(events.at(-1), harness.name).toBe(terminal);
      shapes.push(terminalShape(terminal));
    }
    expect(shapes[0]).toMatchObject(condition.expected);
    expect(shapes[1], "claude-code's terminal against codex's").toEqual(shapes[0]);
  }, 10_000);
});

describe.each(CONDITIONS.filter((c) => c.cancelAt === undefined))("parity of run(): $name", (condition) => {
  it("run() settles as the streamed terminal does", async () => {
    for (const harness of PARITY_HARNESSES) {
      const { client } = harness.make(condition.scripts);
      const settled = client.run({ prompt: "hi", ...condition.call });
      if (condition.expected.outcome === "completed") {
        await expect(settled, harness.name).resolves.toMatchObject({ finalMessage: "hi" });
        continue;
      }
      const error = await settled.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, harness.name).toBeInstanceOf(TurnFailedError);
      expect(terminalShape((error as TurnFailedError).terminal)).toMatchObject(condition.expected);
    }
  }, 10_000);
});

describe("parity: an unknown frame", () => {
  it("reaches the app as passthrough unknown carrying the frame, and changes nothing else", async () => {
    const unknown = CONDITIONS[0]!;
    const written = new Map<string, unknown>([
      ["codex", { method: "x/unknown", params: { a: 1 }, emittedAtMs: 0 }],
      ["claude-code", { type: "mystery", a: 1 }],
    ]);
    for (const harness of PARITY_HARNESSES) {
      const { events, terminal } = await runApp(harness, unknown);
      const passthrough = events.filter((event) => event.type === "passthrough");
      expect(passthrough, harness.name).toEqual([
        expect.objectContaining({ reason: "unknown", native: written.get(harness.name) }),
      ]);
      expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "hi" });
    }
  });
});
