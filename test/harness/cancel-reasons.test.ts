/**
 * The reason of a cancel, whatever value the caller gives it (an `AbortSignal`'s reason may be anything): both
 * harnesses end the turn with one cancelled terminal frame whose `cancellation.reason` is text, and `run()`
 * rejects with exactly that reason.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { TurnResult } from "../../src/call/settle.js";
import type { HarnessSession } from "../../src/harness/session.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { collect } from "../helpers/collect.js";

/** A turn that starts and then waits far longer than any test: only a cancel ends it. */
const HANG_MS = 60_000;
/** Long enough that a turn waiting for it hits the test timeout: the interrupted turn must not wait for it. */
const LONG_GRACE_MS = 120_000;

interface Harness {
  name: string;
  /** What a started turn's first event is (the cancel comes with it), and how many children were launched. */
  start(signal: AbortSignal): { launches: () => number; session: HarnessSession };
  run(signal: AbortSignal): { launches: () => number; result: Promise<TurnResult> };
}

function codex(): { fake: InMemoryAppServer; client: ReturnType<typeof createCodex> } {
  const fake = new InMemoryAppServer({ turn: [fakeSteps.turnStarted(), { delayMs: HANG_MS }] });
  return { fake, client: createCodex({ launcher: fake.launcher, env: {}, interruptGraceMs: LONG_GRACE_MS }) };
}

function claude(): { fake: InMemoryClaude; client: ReturnType<typeof createClaudeCode> } {
  const fake = new InMemoryClaude({ turn: [claudeSteps.init(), { delayMs: HANG_MS }] });
  const env = { IS_SANDBOX: "1", PATH: process.env.PATH };
  return {
    fake,
    client: createClaudeCode({ launcher: fake.launcher, env, interruptGraceMs: LONG_GRACE_MS }),
  };
}

const HARNESSES: Harness[] = [
  {
    name: "codex",
    start: (signal) => {
      const { fake, client } = codex();
      return { launches: () => fake.launches.length, session: client.runStreamed({ prompt: "hi", signal }) };
    },
    run: (signal) => {
      const { fake, client } = codex();
      return { launches: () => fake.launches.length, result: client.run({ prompt: "hi", signal }) };
    },
  },
  {
    name: "claude-code",
    start: (signal) => {
      const { fake, client } = claude();
      return { launches: () => fake.launches.length, session: client.runStreamed({ prompt: "hi", signal }) };
    },
    run: (signal) => {
      const { fake, client } = claude();
      return { launches: () => fake.launches.length, result: client.run({ prompt: "hi", signal }) };
    },
  },
];

function circular(): object {
  const reason: Record<string, unknown> = { why: "stop" };
  reason.self = reason;
  return reason;
}

/** Reasons no JSON text describes, and the text each cancellation gets. */
const REASONS: [string, () => unknown, string][] = [
  ["a bigint", () => 10n, "10"],
  ["a circular object", circular, "[object Object]"],
  ["a symbol", () => Symbol("stop"), "Symbol(stop)"],
  ["an object whose message getter throws", throwingMessage, "[object Object]"],
];

function throwingMessage(): object {
  return {
    get message(): string {
      throw new Error("no message");
    },
  };
}

describe.each(HARNESSES)("$name: a cancel reason JSON cannot encode", (harness) => {
  it.each(REASONS)(
    "%s aborting a running turn ends it cancelled, the reason as text",
    async (_, reasonOf, text) => {
      const controller = new AbortController();
      const { session } = harness.start(controller.signal);
      const reason = reasonOf();
      const { events, terminal } = await collect({
        ...session,
        events: {
          async *[Symbol.asyncIterator]() {
            for await (const event of session.events) {
              yield event;
              if (event.type === "turn.started") controller.abort(reason);
            }
          },
        },
      });
      expect(events.filter((event) => event.type === "terminal")).toEqual([terminal]);
      expect(terminal.outcome).toBe("cancelled");
      expect(terminal.cancellation).toEqual({ via: "interrupted", reason: text });
    },
    10_000,
  );

  it.each(REASONS)(
    "%s given to cancel() before the turn exists ends it before-turn",
    async (_, reasonOf, text) => {
      const { session } = harness.start(new AbortController().signal);
      session.cancel(reasonOf());
      const { terminal } = await collect(session);
      expect(terminal.cancellation).toEqual({ via: "before-turn", reason: text });
    },
  );

  it.each(REASONS)(
    "%s on a signal aborted already: run() rejects with it, nothing starts",
    async (_, reasonOf) => {
      const reason = reasonOf();
      const { launches, result } = harness.run(AbortSignal.abort(reason));
      await expect(result).rejects.toBe(reason);
      expect(launches()).toBe(0);
    },
  );
});

describe.each(HARNESSES)("$name: the first cancel wins before the runner is loaded", (harness) => {
  it("cancel(a) then the caller's signal aborting with b, in the same tick: the reason is a", async () => {
    const controller = new AbortController();
    const { launches, session } = harness.start(controller.signal);
    session.cancel("a");
    controller.abort("b");
    const { terminal } = await collect(session);
    expect(terminal.cancellation).toEqual({ via: "before-turn", reason: "a" });
    expect((session as HarnessSession & { cancelReason: unknown }).cancelReason).toBe("a");
    expect(launches()).toBe(0);
  });
});
