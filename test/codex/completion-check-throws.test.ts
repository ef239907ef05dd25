/**
 * The completion check of a utility call runs when the turn ends; whatever it throws, the turn still ends with
 * exactly one terminal: `failed`, source `parse`, naming what went wrong and keeping the final message.
 */
import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";

async function drain(events: AsyncIterable<HarnessEvent>): Promise<HarnessEvent[]> {
  const all: HarnessEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe("a completion check that throws", () => {
  it("ends the turn failed (source parse) with the error, instead of leaving the stream without a terminal", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn('{"title":"t"}') });
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    const session = codex.startInternal({
      prompt: "x",
      timeouts: { turnMs: 5_000 },
      completionCheck: () => {
        throw new RangeError("Maximum call stack size exceeded");
      },
    });
    const events = await drain(session.events);
    const terminals = events.filter((event) => event.type === "terminal");
    expect(terminals).toHaveLength(1);
    expect(terminals[0]).toMatchObject({
      outcome: "failed",
      finalMessage: '{"title":"t"}',
      failure: {
        source: "parse",
        message:
          "The final message could not be checked against the schema (Maximum call stack size exceeded); " +
          'it starts with: "{\\"title\\":\\"t\\"}"',
        line: '{"title":"t"}',
        errors: ["Maximum call stack size exceeded"],
      },
    });
    expect((await session.result).outcome).toBe("failed");
  });
});
