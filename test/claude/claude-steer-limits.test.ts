/**
 * Steering and limits of a Claude Code turn against the in-memory fake claude: a steer folded into the running
 * turn resolves, one Claude would queue as a new turn rejects, old releases cannot steer; each limit cancels the
 * turn through the interrupt with the limit named and the partial text kept.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { TurnLimits } from "../../src/harness/approvals.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import type { FakeClaudeScript } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };

async function drain(events: AsyncIterable<HarnessEvent>): Promise<HarnessEvent[]> {
  const all: HarnessEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function start(script: FakeClaudeScript, limits?: TurnLimits) {
  const fake = new InMemoryClaude(script);
  const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
  const session = claude.runStreamed({ prompt: "go", ...(limits ? { limits } : {}) });
  return { fake, session };
}

const bashThenText = (version = "2.1.332") => [
  claudeSteps.init({ version }),
  ...claudeSteps.toolUse("toolu_1", "Bash", { command: "make" }),
  { awaitSteer: true as const },
  claudeSteps.toolResult("toolu_1", "built"),
  { takeSteers: true as const },
  ...claudeSteps.text("steered answer", { messageId: "msg_fake_2" }),
  claudeSteps.result({ result: "steered answer" }),
];

describe("Claude Code steering", () => {
  it("writes the guidance with a uuid and resolves once claude takes it into the running turn", async () => {
    const { fake, session } = start({ turn: bashThenText() });
    const steered = session.steer("Keep the public API");
    const events = await drain(session.events);
    await expect(steered).resolves.toBeUndefined();
    const users = fake.peer.linesOf("user");
    expect(users).toHaveLength(2);
    expect(users[1]).toMatchObject({
      message: { content: [{ type: "text", text: "Keep the public API" }] },
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(fake.launches[0]!.spec.args).toContain("--replay-user-messages");
    expect(events.at(-1)).toMatchObject({ outcome: "completed", finalMessage: "steered answer" });
    // the echoed message is evidence, not an item of the agent
    expect(events.filter((e) => e.type === "item" && e.itemType === "userMessage")).toEqual([]);
  });

  it("rejects TURN_NOT_RUNNING when claude would only run it as a new turn after the result", async () => {
    const { session } = start({
      turn: [
        claudeSteps.init(),
        { awaitSteer: true },
        ...claudeSteps.text("done early"),
        claudeSteps.result(),
      ],
      nextTurn: claudeSteps.textTurn("second turn"),
    });
    const steered = session.steer("too late");
    steered.catch(() => undefined); // asserted below, after the stream ended
    const events = await drain(session.events);
    // the message was written: claude 2.1.332 begins it as a new turn at once, whose model request may be made
    // and which a kept thread keeps, so the refusal says so rather than that nothing was taken in
    await expect(steered).rejects.toMatchObject({
      code: "TURN_NOT_RUNNING",
      message: expect.stringContaining(
        "with keepThread the thread may keep it (and a resumed turn sees it) though this turn never took it in",
      ),
    });
    expect(events.at(-1)).toMatchObject({ outcome: "completed" });
    expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
  });

  it("a steer waiting for a turn that is cancelled before it started rejects TURN_NOT_RUNNING", async () => {
    const { fake, session } = start({ turn: claudeSteps.textTurn("never") });
    const steered = session.steer("too early");
    steered.catch(() => undefined); // asserted below, after the stream ended
    session.cancel("changed my mind");
    const events = await drain(session.events);
    expect(events.at(-1)).toMatchObject({ cancellation: { via: "before-turn" } });
    expect(fake.launches).toHaveLength(0);
    await expect(steered).rejects.toMatchObject({ code: "TURN_NOT_RUNNING" });
  }, 10_000);

  it("refuses a steer image whose content is no image, sending nothing", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "rennet-steer-image-"));
    writeFileSync(path.join(dir, "shot.png"), "not an image at all");
    const { fake, session } = start({ turn: bashThenText() });
    await expect(
      session.steer([
        { type: "text", text: "see" },
        { type: "localImage", path: path.join(dir, "shot.png") },
      ]),
    ).rejects.toMatchObject({
      code: "STEER_INPUT_INVALID",
      message: expect.stringContaining("its content is not a PNG, JPEG, GIF or WebP image"),
    });
    session.cancel();
    await drain(session.events);
    // refused before anything is written: the session may not even have launched claude yet
    expect(fake.launches.length === 0 ? 1 : fake.peer.linesOf("user").length).toBe(1);
    rmSync(dir, { recursive: true, force: true });
  });

  it("rejects after the turn, for old releases, and for empty input", async () => {
    const done = start({ turn: claudeSteps.textTurn("ok") });
    await drain(done.session.events);
    await expect(done.session.steer("hi")).rejects.toMatchObject({ code: "TURN_NOT_RUNNING" });
    const old = start({ turn: bashThenText("2.1.112") });
    await expect(old.session.steer("hi")).rejects.toMatchObject({
      code: "STEER_UNSUPPORTED",
      message: expect.stringMatching(
        /^claude 2\.1\.112 .*needs Claude Code 2\.1\.332 or newer; update it with `claude update`/,
      ),
    });
    await expect(old.session.steer("  ")).rejects.toMatchObject({ code: "STEER_INPUT_INVALID" });
    old.session.cancel();
    await drain(old.session.events);
  });
});

describe("Claude Code limits", () => {
  const slowTurn = [
    claudeSteps.init(),
    ...claudeSteps.text("first part", { messageId: "msg_fake_1" }),
    ...claudeSteps.bash("toolu_1", "ls", { output: "a" }, { messageId: "msg_fake_2" }),
    ...claudeSteps.bash("toolu_2", "ls", { output: "b" }, { messageId: "msg_fake_3" }),
    { delayMs: 5000 },
    claudeSteps.result(),
  ];

  it("maxToolCalls cancels through the interrupt, naming the limit and keeping the text and usage", async () => {
    const { fake, session } = start(
      { turn: slowTurn, onInterrupt: claudeSteps.interrupted({ duringTool: true }) },
      { maxToolCalls: 1 },
    );
    const events = await drain(session.events);
    expect(events.at(-1)).toMatchObject({
      outcome: "cancelled",
      finalMessage: "first part",
      usage: expect.objectContaining({ totalTokens: expect.any(Number) }),
      cancellation: {
        via: "interrupted",
        reason: "limit",
        limit: { name: "maxToolCalls", value: 1, reached: 2 },
      },
    });
    expect(
      fake.peer.linesOf("control_request").map((l) => (l.request as { subtype: string }).subtype),
    ).toContain("interrupt");
  });

  it("maxTokens stops at the usage that exceeds it, keeping the text still streaming", async () => {
    const { session } = start(
      {
        turn: [
          claudeSteps.init(),
          ...claudeSteps.text("complete one", { messageId: "msg_fake_1" }),
          { delayMs: 5000 },
        ],
      },
      { maxTokens: 10 },
    );
    const events = await drain(session.events);
    expect(events.at(-1)).toMatchObject({
      outcome: "cancelled",
      finalMessage: "complete one",
      cancellation: { reason: "limit", limit: { name: "maxTokens", value: 10 } },
    });
  });

  it("maxDurationMs cancels on its timer; maxCostUsd becomes --max-budget-usd (the smaller cap)", async () => {
    const { session } = start({ turn: [claudeSteps.init(), { delayMs: 5000 }] }, { maxDurationMs: 50 });
    const events = await drain(session.events);
    expect(events.at(-1)).toMatchObject({
      outcome: "cancelled",
      cancellation: { reason: "limit", limit: { name: "maxDurationMs", value: 50 } },
    });
    const fake = new InMemoryClaude({
      turn: [
        claudeSteps.init(),
        claudeSteps.result({
          subtype: "error_max_budget_usd",
          isError: true,
          errors: ["Reached maximum budget ($0.25)"],
          costUsd: 0.3,
        }),
      ],
    });
    const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
    const budget = await drain(
      claude.runStreamed({ prompt: "go", maxBudgetUsd: 1, limits: { maxCostUsd: 0.25 } }).events,
    );
    expect(fake.launches[0]!.spec.args).toContain("--max-budget-usd=0.25");
    expect(budget.at(-1)).toMatchObject({
      outcome: "cancelled",
      cancellation: { reason: "limit", limit: { name: "maxCostUsd", value: 0.25 } },
    });
  });

  it("refuses invalid limits before anything starts", () => {
    const claude = createClaudeCode({ launcher: new InMemoryClaude({}).launcher, env: ENV });
    expect(() => claude.runStreamed({ prompt: "go", limits: { maxCostUsd: -1 } })).toThrow(/maxCostUsd/);
    expect(() => claude.runStreamed({ prompt: "go", limits: { maxTokenz: 1 } as never })).toThrow(
      /maxTokens/,
    );
  });
});
