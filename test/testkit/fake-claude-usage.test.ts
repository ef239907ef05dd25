/**
 * Claude's `result` line sums the usage of every model response of the turn (recorded from claude 2.1.332 against
 * the loopback Messages server: a Bash turn's result reports both responses' tokens), so the fake's bashTurn ends
 * with the usage its streamed messages add up to.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import type { HarnessEvent } from "../../src/harness/events.js";

describe("fake claude: a turn's result sums its model responses' usage", () => {
  it("bashTurn's terminal usage is the last usage event's, as the real claude's is", async () => {
    const fake = new InMemoryClaude({ turn: claudeSteps.bashTurn("echo hi", { output: "hi\n" }, "done") });
    const client = createClaudeCode({ launcher: fake.launcher, env: { IS_SANDBOX: "1" } });
    const events: HarnessEvent[] = [];
    for await (const event of client.runStreamed({ prompt: "hi", cwd: "/tmp" }).events) events.push(event);
    const streamed = events
      .filter((e) => e.type === "usage")
      .map((e) => (e.type === "usage" ? e.usage : null));
    const terminal = events.at(-1);
    expect(terminal?.type === "terminal" ? terminal.usage?.inputTokens : null).toBe(
      Math.max(...streamed.map((u) => u?.inputTokens ?? 0)),
    );
  });
});
