import { afterEach, describe, expect, it } from "vitest";
import { sequence, text } from "../../src/testkit/model-scenarios.js";
import { modelUsage } from "../../src/testkit/responses-stream-events.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

// Codex 0.135 and newer restore a resumed thread's usage before the turn starts, 0.80-0.134 right after it,
// 0.72 not at all: each way, the follow-up turn's usage is its own.
describe("real codex: a follow-up turn's usage", () => {
  it("is that turn's alone, not the thread's total", async () => {
    fixture = await startRealCodex(
      sequence([text("one", { usage: modelUsage(100, 10) }), text("two", { usage: modelUsage(300, 30) })]),
    );
    const chat = fixture.client.conversation({ cwd: fixture.cwd });
    const first = await chat.run("first");
    const second = await chat.run("second");
    expect(first.usage?.inputTokens).toBe(100);
    expect(second.usage?.inputTokens).toBe(300);
  });

  it("maxTokens on a follow-up turn counts that turn's tokens only", async () => {
    fixture = await startRealCodex(
      sequence([text("one", { usage: modelUsage(100, 10) }), text("two", { usage: modelUsage(300, 30) })]),
    );
    const first = await fixture.client.runStreamed({ prompt: "first", cwd: fixture.cwd, ephemeral: false })
      .result;
    const second = await fixture.client.runStreamed({
      prompt: "second",
      cwd: fixture.cwd,
      resume: first.threadId ?? "",
      limits: { maxTokens: 100 },
    }).result;
    // the turn's one request goes over, right before codex completes the turn: either end may win the race,
    // but never a limit at the thread's earlier tokens
    expect(second.usage?.totalTokens).toBe(330);
    if (second.outcome === "cancelled")
      expect(second.cancellation.limit).toEqual({ name: "maxTokens", value: 100, reached: 330 });
  });
});
