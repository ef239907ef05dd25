/**
 * The fake app-server's `textTurn` gives an app the events the real codex 0.171 gives for a text turn against the
 * loopback model (recorded: turn.started, the echoed `userMessage` item started and completed, the agent message,
 * usage, rate-limits, terminal), so an app tested against the fake sees what it will see for real.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import type { HarnessEvent } from "../../src/harness/events.js";

async function eventsOf(fake: InMemoryAppServer, prompt: string): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of createCodex({ launcher: fake.launcher }).runStreamed({ prompt }).events)
    events.push(event);
  return events;
}

describe("fake app-server: textTurn is the real codex's text turn", () => {
  it("emits the events of the real codex's text turn, in its order", async () => {
    const events = await eventsOf(new InMemoryAppServer({ turn: fakeSteps.textTurn("hello") }), "hi");
    const kinds = events
      .filter((e) => e.type !== "native" && e.type !== "text.delta")
      .map((e) => (e.type === "item" ? `item:${e.phase}:${e.itemType}` : e.type));
    expect(kinds).toEqual([
      "session.started",
      "turn.started",
      "item:started:userMessage",
      "item:completed:userMessage",
      "item:started:agentMessage",
      "text.completed",
      "usage",
      "rate-limits",
      "terminal",
    ]);
  });

  it("echoes the prompt in the userMessage item, as codex does", async () => {
    const events = await eventsOf(new InMemoryAppServer({ turn: fakeSteps.textTurn("hello") }), "say hi");
    const user = events.find(
      (e) => e.type === "item" && e.itemType === "userMessage" && e.phase === "completed",
    );
    expect(user?.type === "item" ? user.item : null).toMatchObject({
      type: "userMessage",
      content: [{ type: "text", text: "say hi", text_elements: [] }],
    });
  });

  it("rateLimits: the notification codex sends after each model response", async () => {
    const window = { usedPercent: 12, windowDurationMins: 300, resetsAt: 1796655300 };
    const turn = [...fakeSteps.textTurn("hello")];
    turn.splice(-1, 0, fakeSteps.rateLimits(window));
    const events = await eventsOf(new InMemoryAppServer({ turn }), "hi");
    const limits = events.filter((e) => e.type === "rate-limits");
    expect(limits.at(-1)).toMatchObject({ primary: window, secondary: null });
  });
});

describe("fake app-server: thread/start answers the thread's cwd", () => {
  it("session.started names the turn's cwd, as codex answers it", async () => {
    const cwd = await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-fake-cwd-")));
    const events: HarnessEvent[] = [];
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("hello") });
    for await (const event of createCodex({ launcher: fake.launcher }).runStreamed({ prompt: "hi", cwd })
      .events)
      events.push(event);
    await rm(cwd, { recursive: true });
    expect(events.find((e) => e.type === "session.started")).toMatchObject({ cwd });
  });
});
