/**
 * The structured-output check of a Claude Code turn runs on its `result`; whatever it throws, the turn still ends
 * with exactly one terminal: `failed`, source `parse`, naming the error and keeping the value.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

async function drain(events: AsyncIterable<HarnessEvent>): Promise<HarnessEvent[]> {
  const all: HarnessEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe("a Claude Code structured-output check that throws", () => {
  it("ends the turn failed (source parse) with the error, instead of leaving the stream without a terminal", async () => {
    const fake = new InMemoryClaude({
      turn: [claudeSteps.init(), claudeSteps.result({ structuredOutput: { a: 1 } })],
    });
    const claude = createClaudeCode({
      launcher: fake.launcher,
      env: { IS_SANDBOX: "1", PATH: process.env.PATH },
    });
    const session = claude.startInternal(
      { prompt: "x", timeouts: { turnMs: 5_000 } },
      {
        schema: { type: "object", properties: { a: { type: "number" } } },
        check: () => {
          throw new RangeError("Maximum call stack size exceeded");
        },
      },
    );
    const events = await drain(session.events);
    const terminals = events.filter((event) => event.type === "terminal");
    expect(terminals).toHaveLength(1);
    expect(terminals[0]).toMatchObject({
      outcome: "failed",
      failure: {
        source: "parse",
        message:
          "Claude Code's structured output could not be checked against the schema (Maximum call stack size exceeded)",
        line: '{"a":1}',
        errors: ["Maximum call stack size exceeded"],
      },
    });
  });
});
