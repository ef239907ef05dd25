import { describe, expect, it } from "vitest";
import { APP_SERVER_BASE_ARGS } from "../helpers/app-server-args.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { collect, ofType } from "../helpers/collect.js";
import { startFakeSession } from "../helpers/fake-session.js";
import { usage } from "../helpers/usage.js";

const run = startFakeSession;

describe("turn runner with the in-memory fake", () => {
  it("runs the handshake, streams text and completes", async () => {
    const { fake, session } = run({ turn: fakeSteps.textTurn("Hello there", ["Hello", " there"]) });
    const { events, terminal } = await collect(session);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)).toBe(events.find((e) => e.type === "terminal"));
    expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["Hello", " there"]);
    expect(terminal.outcome).toBe("completed");
    expect(terminal.finalMessage).toBe("Hello there");
    expect(terminal.usage).toEqual(usage({ inputTokens: 10, outputTokens: 5, totalTokens: 15 }));
    const methods = fake.peer.received.map((f) => f.method);
    expect(methods).toEqual(["initialize", "initialized", "config/read", "thread/start", "turn/start"]);
    expect(fake.launches[0]?.terminated).toBe(true);
    expect(fake.launches[0]?.spec.args).toEqual(["app-server", ...APP_SERVER_BASE_ARGS]);
  });
});

describe("the end of a session", () => {
  it("delivers the terminal frame before it starts ending the process tree", async () => {
    const { fake, session } = run({ turn: fakeSteps.textTurn("Hi", ["Hi"]) });
    let terminatedAtTerminal: boolean | undefined;
    for await (const event of session.events)
      if (event.type === "terminal") terminatedAtTerminal = fake.launches[0]?.terminated;
    expect(terminatedAtTerminal).toBe(false);
    expect((await session.result).outcome).toBe("completed");
    expect(fake.launches[0]?.terminated).toBe(true);
  });
});

describe("overall deadline", () => {
  it("covers the handshake too: a stalled thread/start ends at the overall deadline when it is shorter", async () => {
    const { fake, session } = run(
      { replies: { "thread/start": { noReply: true } } },
      { timeouts: { turnMs: 50, threadStartMs: 60_000 } },
    );
    const { terminal } = await collect(session);
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "turn", timeout: { step: "turn", timeoutMs: 50 } });
    expect(fake.launches[0]?.terminated).toBe(true);
  });
});
