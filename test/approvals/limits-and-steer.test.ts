import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { isRennetError } from "../../src/errors.js";
import { fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { ofType } from "../helpers/collect.js";

function start(script: FakeScript, extra: Record<string, unknown> = {}) {
  const fake = new InMemoryAppServer(script);
  const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({
    prompt: "hi",
    timeouts: { turnMs: 10_000 },
    ...extra,
  });
  return { fake, session };
}

async function drain(session: { events: AsyncIterable<HarnessEvent> }): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of session.events) events.push(event);
  return events;
}

const command = (id: string) => [
  fakeSteps.item("started", { type: "commandExecution", id, command: "ls", status: "inProgress" }),
  fakeSteps.item("completed", {
    type: "commandExecution",
    id,
    command: "ls",
    status: "completed",
    exitCode: 0,
  }),
];

/** A turn that streams partial text, then hangs until interrupted (the fake answers the interrupt). */
const partialThenWait = (...middle: ReturnType<typeof fakeSteps.notify>[]) => [
  fakeSteps.turnStarted(),
  fakeSteps.item("started", { type: "agentMessage", id: "m1", text: "", phase: null }),
  fakeSteps.notify("item/agentMessage/delta", {
    itemId: "m1",
    delta: "partial answer",
    threadId: "0199f0fa-4e00-7000-8000-000000000001",
    turnId: "turn_fake_0001",
  }),
  ...middle,
  { delayMs: 60_000 },
];

describe("limits", () => {
  it("maxTokens: cancelled at the usage that exceeds it, keeping the partial text and usage", async () => {
    const { fake, session } = start(
      {
        turn: partialThenWait(
          fakeSteps.tokenUsage({ totalTokens: 500, inputTokens: 400, outputTokens: 100 }),
        ),
      },
      { limits: { maxTokens: 300 } },
    );
    const events = await drain(session);
    const terminal = await session.result;
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation).toEqual({
      via: "interrupted",
      reason: "limit",
      limit: { name: "maxTokens", value: 300, reached: 500 },
    });
    expect(terminal.finalMessage).toBe("partial answer");
    expect(terminal.usage?.totalTokens).toBe(500);
    expect(fake.peer.requestsOf("turn/interrupt")).toHaveLength(1);
    expect(ofType(events, "terminal")).toHaveLength(1);
  });

  it("maxToolCalls: the first tool call beyond it stops the turn", async () => {
    const { session } = start(
      { turn: partialThenWait(...command("c1"), ...command("c2"), ...command("c3")) },
      { limits: { maxToolCalls: 2 } },
    );
    const events = await drain(session);
    const terminal = await session.result;
    expect(terminal.cancellation?.limit).toEqual({ name: "maxToolCalls", value: 2, reached: 3 });
    // every tool.started still gets its tool.completed before the terminal
    expect(ofType(events, "tool.completed")).toHaveLength(ofType(events, "tool.started").length);
  });

  it("under the limits nothing happens", async () => {
    const { session } = start(
      { turn: fakeSteps.textTurn("hello") },
      { limits: { maxTokens: 15, maxToolCalls: 0, maxDurationMs: 5_000 } },
    );
    await drain(session);
    expect((await session.result).outcome).toBe("completed");
  });

  it("maxDurationMs: a timer stops the turn with the elapsed time", async () => {
    const { session } = start({ turn: partialThenWait() }, { limits: { maxDurationMs: 150 } });
    await drain(session);
    const terminal = await session.result;
    expect(terminal.cancellation?.reason).toBe("limit");
    expect(terminal.cancellation?.limit?.name).toBe("maxDurationMs");
    expect(terminal.cancellation?.limit?.reached).toBeGreaterThanOrEqual(150);
    expect(terminal.finalMessage).toBe("partial answer");
  });

  it("run() rejects a limited turn with TurnCancelledError carrying the limit", async () => {
    const fake = new InMemoryAppServer({ turn: partialThenWait(...command("c1")) });
    const error = await createCodex({ launcher: fake.launcher, env: {} })
      .run({ prompt: "hi", limits: { maxToolCalls: 0 } })
      .catch((e: unknown) => e);
    expect(isRennetError(error, "TURN_CANCELLED")).toBe(true);
    expect((error as { terminal: { cancellation: unknown } }).terminal.cancellation).toMatchObject({
      reason: "limit",
      limit: { name: "maxToolCalls" },
    });
  });

  it("maxCostUsd is refused for Codex before anything starts, and bad values are OPTIONS_INVALID", () => {
    const fake = new InMemoryAppServer({});
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    expect(() => codex.runStreamed({ prompt: "hi", limits: { maxCostUsd: 1 } })).toThrow(
      expect.objectContaining({ code: "LIMIT_UNSUPPORTED" }),
    );
    expect(() => codex.runStreamed({ prompt: "hi", limits: { maxTokens: -1 } })).toThrow(
      expect.objectContaining({ code: "OPTIONS_INVALID" }),
    );
    expect(() => codex.runStreamed({ prompt: "hi", limits: { maxTurns: 1 } as never })).toThrow(
      expect.objectContaining({ code: "OPTION_UNKNOWN" }),
    );
    expect(() => codex.runStreamed({ prompt: "hi", approvals: {} as never })).toThrow(
      expect.objectContaining({ code: "OPTIONS_INVALID" }),
    );
    expect(fake.launches).toHaveLength(0);
  });
});

describe("steer", () => {
  it("sends turn/steer with the owned turn as expectedTurnId and resolves when codex accepts", async () => {
    const { fake, session } = start({
      turn: [fakeSteps.turnStarted(), { delayMs: 60_000 }],
      onSteer: fakeSteps.textTurn("steered").slice(1),
    });
    const steered = session.steer("focus on the tests");
    await expect(steered).resolves.toBeUndefined();
    await drain(session);
    expect(fake.peer.requestsOf("turn/steer")[0]?.params).toEqual({
      threadId: "0199f0fa-4e00-7000-8000-000000000001",
      expectedTurnId: "turn_fake_0001",
      input: [{ type: "text", text: "focus on the tests" }],
    });
    expect((await session.result).finalMessage).toBe("steered");
  });

  it("rejects with TURN_NOT_RUNNING after the turn ended", async () => {
    const { session } = start({ turn: fakeSteps.textTurn("done") });
    await drain(session);
    await expect(session.steer("too late")).rejects.toMatchObject({
      name: "SteerError",
      code: "TURN_NOT_RUNNING",
    });
  });

  it("rejects with STEER_UNSUPPORTED on a codex without turn/steer, and STEER_REFUSED on an error answer", async () => {
    const old = start({
      turn: [fakeSteps.turnStarted(), { delayMs: 60_000 }],
      replies: { initialize: { result: { userAgent: "codex_cli_rs/0.90.0 (fake)" } } },
    });
    await expect(old.session.steer("x")).rejects.toMatchObject({ code: "STEER_UNSUPPORTED" });
    old.session.cancel();
    await drain(old.session);
    expect(old.fake.peer.requestsOf("turn/steer")).toHaveLength(0);

    const refused = start({
      turn: [fakeSteps.turnStarted(), { delayMs: 60_000 }],
      replies: { "turn/steer": { error: { code: -32600, message: "expected active turn id mismatch" } } },
    });
    await expect(refused.session.steer([{ type: "text", text: "x" }])).rejects.toMatchObject({
      code: "STEER_REFUSED",
      details: { agentMessage: "expected active turn id mismatch" },
    });
    refused.session.cancel();
    await drain(refused.session);
  });

  it("rejects invalid input before sending anything", async () => {
    const { session } = start({ turn: fakeSteps.textTurn("x") });
    await expect(session.steer("  ")).rejects.toMatchObject({ code: "STEER_INPUT_INVALID" });
    await expect(session.steer([{ type: "video" } as never])).rejects.toMatchObject({
      code: "STEER_INPUT_INVALID",
    });
    await expect(
      session.steer([
        { type: "text", text: "see" },
        { type: "localImage", path: "/nonexistent/shot.png" },
      ]),
    ).rejects.toMatchObject({
      code: "STEER_INPUT_INVALID",
      message: "session.steer(): image /nonexistent/shot.png: not found (/nonexistent/shot.png)",
    });
    await drain(session);
  });
});
