import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { ConversationBusyError } from "../../src/codex/client/conversation.js";
import { FAKE_THREAD_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";

describe("conversation (in-memory app-server, real framing)", () => {
  it("keeps the thread on turn 1 and resumes it in a fresh child on turn 2, with the same cwd and policies", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    const chat = codex.conversation({ cwd: "/tmp", model: "m-1" });
    expect(chat.threadId).toBeNull();
    await chat.run("one");
    expect(chat.threadId).toBe(FAKE_THREAD_ID);
    await chat.run("two");
    expect(fake.launches).toHaveLength(2);
    const [first, second] = fake.launches;
    expect(first?.peer.requestsOf("thread/start")[0]?.params).toMatchObject({
      ephemeral: false,
      cwd: "/tmp",
    });
    expect(first?.peer.requestsOf("thread/resume")).toEqual([]);
    expect(second?.peer.requestsOf("thread/start")).toEqual([]);
    expect(second?.peer.requestsOf("thread/resume")[0]?.params).toMatchObject({
      threadId: FAKE_THREAD_ID,
      cwd: "/tmp",
      model: "m-1",
      approvalPolicy: "never",
      sandbox: "danger-full-access",
    });
    expect(fake.launches.every((launch) => launch.terminated)).toBe(true);
  });

  it("states the conversation's trustProject on every turn, the resumed one included", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const chat = createCodex({ launcher: fake.launcher, env: {} }).conversation({
      cwd: "/tmp",
      trustProject: true,
    });
    const first = await chat.run("one");
    const second = await chat.run("two");
    expect(first.terminal.trust).toEqual({ level: "trusted", source: "call" });
    expect(second.terminal.trust).toEqual({ level: "trusted", source: "call" });
    const resumed = fake.launches[1]?.peer.requestsOf("thread/resume")[0]?.params as {
      config: { projects: Record<string, unknown> };
    };
    expect(resumed.config.projects["/tmp"]).toEqual({ trust_level: "trusted" });
  });

  it("runs one turn at a time", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const chat = createCodex({ launcher: fake.launcher, env: {} }).conversation({ cwd: "/tmp" });
    const running = chat.run("one");
    await expect(chat.run("two")).rejects.toBeInstanceOf(ConversationBusyError);
    await running;
  });

  it("continues a given thread from its first turn", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const chat = createCodex({ launcher: fake.launcher, env: {} }).conversation({
      cwd: "/tmp",
      threadId: "0199f0fa-4e00-7000-8000-000000000009",
    });
    await chat.run("again");
    expect(fake.launches[0]?.peer.requestsOf("thread/resume")[0]?.params).toMatchObject({
      threadId: "0199f0fa-4e00-7000-8000-000000000009",
    });
  });
});
