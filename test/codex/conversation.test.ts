import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { ConversationBusyError } from "../../src/call/conversation.js";
import { FAKE_THREAD_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { TurnFailedError } from "../../src/harness/errors.js";
import { thrownBy } from "../helpers/thrown.js";
import { waitFor } from "../helpers/wait.js";
import { PIXEL_PNG } from "../helpers/pixel-png.js";
import { tempDir } from "../helpers/temp.js";

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

  it("a first turn that failed after codex acknowledged it keeps its thread: the next turn continues it", async () => {
    const fake = new InMemoryAppServer({
      turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("failed", { error: { message: "boom" } })],
    });
    const chat = createCodex({ launcher: fake.launcher, env: {} }).conversation({ cwd: "/tmp" });
    await expect(chat.run("one")).rejects.toBeInstanceOf(TurnFailedError);
    expect(chat.threadId).toBe(FAKE_THREAD_ID);
    await expect(chat.run("two")).rejects.toBeInstanceOf(TurnFailedError);
    expect(fake.launches[1]?.peer.requestsOf("thread/start")).toEqual([]);
    expect(fake.launches[1]?.peer.requestsOf("thread/resume")[0]?.params).toMatchObject({
      threadId: FAKE_THREAD_ID,
    });
  });

  it("a first turn cancelled by the run's signal keeps its thread once codex acknowledged the turn", async () => {
    const fake = new InMemoryAppServer({ turn: [fakeSteps.turnStarted(), { delayMs: 30_000 }] });
    const chat = createCodex({ launcher: fake.launcher, env: {}, interruptGraceMs: 50 }).conversation({
      cwd: "/tmp",
    });
    const controller = new AbortController();
    const running = chat.run("one", { signal: controller.signal });
    await waitFor(() => (fake.launches[0]?.peer.requestsOf("turn/start").length ?? 0) > 0, "turn/start");
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error("stop"));
    await expect(running).rejects.toThrow("stop");
    expect(chat.threadId).toBe(FAKE_THREAD_ID);
  });

  it("a run cancelled before anything started keeps no thread", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const chat = createCodex({ launcher: fake.launcher, env: {} }).conversation({ cwd: "/tmp" });
    await expect(chat.run("one", { signal: AbortSignal.abort(new Error("early")) })).rejects.toThrow("early");
    expect(chat.threadId).toBeNull();
    expect(fake.launches).toEqual([]);
  });

  it.each(["--help", "../../sessions/x", "0199f0fa-4e00-7000-8000-00000000000"])(
    "a threadId %j that is not a thread id throws RESUME_ID_INVALID at conversation(), naming threadId",
    (threadId) => {
      const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
      const codex = createCodex({ launcher: fake.launcher, env: {} });
      const error = thrownBy(() => codex.conversation({ cwd: "/tmp", threadId }));
      expect(error).toMatchObject({ code: "RESUME_ID_INVALID" });
      expect((error as Error).message).toMatch(/^threadId "/);
      expect(fake.launches).toEqual([]);
    },
  );

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

  it("an image goes with the turn it is given to (chat.run(prompt, { images })); the next turn sends it no more", async () => {
    const dir = await tempDir("rennet-conversation-");
    await writeFile(path.join(dir, "a.png"), PIXEL_PNG);
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const chat = createCodex({ launcher: fake.launcher, env: {} }).conversation({ cwd: dir });
    await chat.run("look", { images: ["a.png"] });
    await chat.run("and now");
    const inputs = fake.launches.map(
      (launch) => (launch.peer.requestsOf("turn/start")[0]?.params as { input?: unknown } | undefined)?.input,
    );
    expect(inputs).toEqual([
      [
        { type: "text", text: "look" },
        { type: "localImage", path: path.join(dir, "a.png") },
      ],
      [{ type: "text", text: "and now" }],
    ]);
  });

  it("conversation({ images }) is refused before anything starts, naming the turn's own images", () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    const error = thrownBy(() => codex.conversation({ cwd: "/tmp", images: ["a.png"] } as never));
    expect(error).toMatchObject({ code: "OPTION_UNKNOWN" });
    expect((error as Error).message).toContain("run(prompt, { images })");
    expect(fake.launches).toEqual([]);
  });

  it.each([
    ["signal", "chat.run(prompt, { signal })"],
    ["prompt", "chat.run(prompt)"],
    ["ephemeral", "a conversation keeps its thread itself"],
  ])("conversation({ %s }) is refused before anything starts, naming where it goes", (key, where) => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    const error = thrownBy(() => codex.conversation({ [key]: undefined } as never));
    expect(error).toMatchObject({ code: "OPTION_UNKNOWN", message: expect.stringContaining(where) });
  });
});
