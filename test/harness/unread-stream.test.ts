/**
 * A session whose event stream nobody iterates: `session.result` alone settles, however many events the turn
 * makes. Backpressure holds the child back only for a consumer that reads (a stream nobody reads would otherwise
 * pause the child at the high-water mark for good, and the turn, with its process, would never end).
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { EVENT_QUEUE_HIGH_WATER } from "../../src/harness/event-channel.js";
import type { HarnessSession } from "../../src/harness/session.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

/** Three times the high-water mark of deltas. */
const CHUNKS = Array.from({ length: 3 * EVENT_QUEUE_HIGH_WATER }, (_, i) => `d${i} `);

interface Flood {
  name: string;
  start(): { session: HarnessSession; terminated: () => boolean };
}

const FLOODS: Flood[] = [
  {
    name: "codex",
    start: () => {
      const fake = new InMemoryAppServer({
        turn: [
          fakeSteps.turnStarted(),
          ...fakeSteps.agentMessage("msg_1", CHUNKS),
          fakeSteps.turnCompleted("completed"),
        ],
      });
      const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({ prompt: "hi" });
      return { session, terminated: () => fake.launches.every((launch) => launch.terminated) };
    },
  },
  {
    name: "claude-code",
    start: () => {
      const fake = new InMemoryClaude({
        turn: [
          claudeSteps.init(),
          ...claudeSteps.text(CHUNKS.join(""), { chunks: CHUNKS }),
          claudeSteps.result({ result: CHUNKS.join("") }),
        ],
      });
      const env = { IS_SANDBOX: "1", PATH: process.env.PATH };
      const session = createClaudeCode({ launcher: fake.launcher, env }).runStreamed({ prompt: "hi" });
      return { session, terminated: () => fake.launches.every((launch) => launch.terminated) };
    },
  },
];

describe.each(FLOODS)("$name: a stream nobody iterates", (flood) => {
  it("settles `result` with the turn's own outcome and ends the child", async () => {
    const { session, terminated } = flood.start();
    const terminal = await session.result;
    expect(terminal.outcome).toBe("completed");
    expect(terminal.finalMessage).toBe(CHUNKS.join(""));
    expect(terminated()).toBe(true);
  }, 10_000);

  it("is iterated late: every event is there, in order, once", async () => {
    const { session } = flood.start();
    const terminal = await session.result;
    let seq = 0;
    let deltas = 0;
    for await (const event of session.events) {
      expect(event.seq).toBe(++seq);
      if (event.type === "text.delta") deltas++;
    }
    expect(deltas).toBe(CHUNKS.length);
    expect(seq).toBe(terminal.seq);
  }, 10_000);
});
