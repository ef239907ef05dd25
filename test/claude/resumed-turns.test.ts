/**
 * A turn that resumes a kept thread, in a fresh child: the checklist Claude keeps for the thread (its Task*
 * list) continues in that turn's `plan.updated`, and its usage is the turn's own.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import type { FakeClaudeStep } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps, FAKE_CLAUDE_SESSION_ID } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };

async function turn(
  steps: FakeClaudeStep[],
  options: { resume?: string; sessionId?: string } = {},
): Promise<HarnessEvent[]> {
  const fake = new InMemoryClaude({
    turn: [claudeSteps.init({ sessionId: options.sessionId ?? FAKE_CLAUDE_SESSION_ID }), ...steps],
  });
  const session = createClaudeCode({ launcher: fake.launcher, env: ENV }).runStreamed({
    prompt: "go",
    keepThread: true,
    ...(options.resume !== undefined ? { resume: options.resume } : {}),
  });
  const events: HarnessEvent[] = [];
  for await (const event of session.events) events.push(event);
  return events;
}

function plans(events: readonly HarnessEvent[]): { step: string; status: string }[][] {
  return events.flatMap((e) => (e.type === "plan.updated" ? [e.steps.map((s) => ({ ...s }))] : []));
}

const create = (id: string, subject: string): FakeClaudeStep[] => [
  ...claudeSteps.toolUse(`toolu_c${id}`, "TaskCreate", { subject, description: subject }),
  claudeSteps.toolResult(`toolu_c${id}`, `Task #${id} created successfully: ${subject}`, {
    toolUseResult: { task: { id, subject, description: subject } },
  }),
];

const update = (id: string, from: string, to: string): FakeClaudeStep[] => [
  ...claudeSteps.toolUse(`toolu_u${id}${to}`, "TaskUpdate", { taskId: id, status: to }),
  claudeSteps.toolResult(`toolu_u${id}${to}`, `Updated task #${id} status`, {
    toolUseResult: { success: true, taskId: id, updatedFields: ["status"], statusChange: { from, to } },
  }),
];

describe("a resumed Claude Code turn", () => {
  it("continues the thread's Task checklist: an update of an earlier task and a new task carry the whole list", async () => {
    const thread = "0b9a5e1c-7d2f-4c3b-9a8e-6f5d4c3b2a19";
    const first = await turn(
      [...create("1", "alpha"), ...create("2", "beta"), claudeSteps.result({ sessionId: thread })],
      {
        sessionId: thread,
      },
    );
    expect(plans(first).at(-1)).toEqual([
      { step: "alpha", status: "pending" },
      { step: "beta", status: "pending" },
    ]);
    const second = await turn(
      [
        ...update("1", "pending", "completed"),
        ...create("3", "gamma"),
        claudeSteps.result({ sessionId: thread }),
      ],
      { resume: thread.toUpperCase(), sessionId: thread },
    );
    expect(plans(second)).toEqual([
      [
        { step: "alpha", status: "completed" },
        { step: "beta", status: "pending" },
      ],
      [
        { step: "alpha", status: "completed" },
        { step: "beta", status: "pending" },
        { step: "gamma", status: "pending" },
      ],
    ]);
    // a new thread starts from an empty list, whatever an earlier thread held
    const fresh = await turn([...create("1", "delta"), claudeSteps.result()]);
    expect(plans(fresh)).toEqual([[{ step: "delta", status: "pending" }]]);
  });
});

/** A `result` of a resumed turn whose own request cost 0.0042 and whose thread had cost 0.4002 before it. */
function resumedResult(shape: "2.1.332" | "2.1.112" | "2.0.77"): FakeClaudeStep {
  const usage = {
    input_tokens: 1000,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: 10,
  };
  const own = {
    inputTokens: 1000,
    outputTokens: 10,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    costUSD: 0.0042,
  };
  const thread = { ...own, inputTokens: 101000, outputTokens: 20, costUSD: 0.4044 };
  return {
    send: {
      type: "result",
      subtype: "success",
      is_error: false,
      result: "two",
      session_id: FAKE_CLAUDE_SESSION_ID,
      total_cost_usd: shape === "2.1.112" ? 0.0042 : 0.4044,
      usage,
      modelUsage: { "claude-fake-1": shape === "2.1.112" ? own : thread },
      ...(shape === "2.1.332" ? { model_usage_since_last_result: { "claude-fake-1": own } } : {}),
    },
  };
}

describe("a resumed Claude Code turn's usage", () => {
  it("costs what its own requests cost, not the thread's total Claude restored (2.1.332: since the last result)", async () => {
    const events = await turn([...claudeSteps.text("two"), resumedResult("2.1.332")], {
      resume: FAKE_CLAUDE_SESSION_ID,
    });
    const terminal = events.at(-1);
    expect(terminal).toMatchObject({ type: "terminal", outcome: "completed" });
    expect(terminal?.type === "terminal" ? terminal.usage : null).toMatchObject({
      inputTokens: 1000,
      costUsd: 0.0042,
    });
  });

  it("has no cost where Claude reports only the thread's total (2.0.77), and the total where it is the turn's (2.1.112)", async () => {
    const old = (
      await turn([...claudeSteps.text("two"), resumedResult("2.0.77")], { resume: FAKE_CLAUDE_SESSION_ID })
    ).at(-1);
    expect(old?.type === "terminal" ? old.usage : null).toMatchObject({ inputTokens: 1000 });
    expect(old?.type === "terminal" ? old.usage : null).not.toHaveProperty("costUsd");
    const mid = (
      await turn([...claudeSteps.text("two"), resumedResult("2.1.112")], { resume: FAKE_CLAUDE_SESSION_ID })
    ).at(-1);
    expect(mid?.type === "terminal" ? mid.usage : null).toMatchObject({ costUsd: 0.0042 });
    // a turn that resumes nothing keeps Claude's total
    const fresh = (await turn([...claudeSteps.text("one"), resumedResult("2.0.77")])).at(-1);
    expect(fresh?.type === "terminal" ? fresh.usage : null).toMatchObject({ costUsd: 0.4044 });
  });
});

describe("a resumed Claude Code turn stopped at its budget", () => {
  it("names the cost the turn reached, not the thread's (2.1.332: Claude's budget counts the turn)", async () => {
    const stop = resumedResult("2.1.332");
    const send = {
      ...(stop as { send: Record<string, unknown> }).send,
      subtype: "error_max_budget_usd",
      errors: ["Reached maximum budget ($0.001)"],
    };
    const events = await turn([...claudeSteps.text("two"), { send }], { resume: FAKE_CLAUDE_SESSION_ID });
    const terminal = events.at(-1);
    expect(terminal?.type === "terminal" ? terminal.cancellation : null).toEqual({
      via: "interrupted",
      reason: "limit",
      limit: { name: "maxCostUsd", value: 0.001, reached: 0.0042 },
    });
  });
});
