/**
 * The runner starts codex before it loads the protocol half (which then loads while codex starts up), hands that
 * child to the turn child as its one launch, and ends it with the session when the session ends first.
 */
import { describe, expect, it } from "vitest";
import { turnRuntime, type TurnRuntime } from "../../src/codex/turn/turn-child.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { collect } from "../helpers/collect.js";
import { runnerOn } from "../helpers/fake-session.js";

/** The fake's launcher, counting its launches and the terminations of what it started. */
function countedLauncher(fake: InMemoryAppServer) {
  const counts = { launched: 0, terminated: 0 };
  const launcher: Launcher = (spec) => {
    counts.launched++;
    const child = fake.launcher(spec);
    return {
      ...child,
      terminate: async (options) => {
        counts.terminated++;
        await child.terminate(options);
      },
    };
  };
  return { launcher, counts };
}

describe("codex started before the protocol half", () => {
  it("is launched once, before the protocol half is asked for, and the turn runs on that child", async () => {
    const fake = new InMemoryAppServer({
      turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("completed")],
    });
    const { launcher, counts } = countedLauncher(fake);
    let launchedWhenLoaded: number | null = null;
    const session = runnerOn(launcher, {
      runtime: () => {
        launchedWhenLoaded = counts.launched;
        return Promise.resolve(turnRuntime);
      },
    });
    const { terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
    expect(launchedWhenLoaded).toBe(1);
    expect(counts.launched).toBe(1);
    expect(fake.launches).toHaveLength(1);
    expect(counts.terminated).toBe(1);
  });

  it("is ended before the result settles when the session is cancelled while the protocol half loads", async () => {
    const fake = new InMemoryAppServer({
      turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("completed")],
    });
    const { launcher, counts } = countedLauncher(fake);
    let loadRuntime!: (runtime: TurnRuntime) => void;
    let asked!: () => void;
    const loadAsked = new Promise<void>((resolve) => (asked = resolve));
    const session = runnerOn(launcher, {
      runtime: () => {
        asked();
        return new Promise<TurnRuntime>((resolve) => (loadRuntime = resolve));
      },
    });
    await loadAsked;
    expect(counts.launched).toBe(1);
    session.cancel("stop");
    const terminal = await session.result;
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation?.via).toBe("before-turn");
    expect(counts.terminated).toBe(1);
    // the load finishing late opens no turn child and starts nothing more
    loadRuntime(turnRuntime);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(counts.launched).toBe(1);
    expect(fake.peer.requestsOf("initialize")).toEqual([]);
  });

  it("is not started when the session ended while prepare ran", async () => {
    const fake = new InMemoryAppServer({ turn: [] });
    const { launcher, counts } = countedLauncher(fake);
    let prepared!: () => void;
    let preparing!: () => void;
    const prepareAsked = new Promise<void>((resolve) => (preparing = resolve));
    const session = runnerOn(launcher, {
      prepare: () => {
        preparing();
        return new Promise((resolve) => {
          prepared = () => resolve({ codex: { type: "native", command: "codex" }, appServerArgs: [] });
        });
      },
    });
    await prepareAsked;
    session.cancel("stop");
    expect((await session.result).outcome).toBe("cancelled");
    prepared();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(counts.launched).toBe(0);
  });
});
