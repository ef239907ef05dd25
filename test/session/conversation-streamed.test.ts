/**
 * `chat.runStreamed(prompt)` on both harnesses' conversations, against the in-memory fakes: the turn's own
 * event stream, the thread kept and continued as `run()` keeps it, one turn at a time until the session's
 * `result` settles, and the options refused before anything starts without leaving the conversation busy.
 */
import { describe, expect, it } from "vitest";
import { ConversationBusyError, type Conversation } from "../../src/call/conversation.js";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { claudeSteps, FAKE_CLAUDE_SESSION_ID } from "../../src/testkit/fake-claude-steps.js";
import { FAKE_THREAD_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { collect, ofType } from "../helpers/collect.js";
import { thrownBy } from "../helpers/thrown.js";
import { waitFor } from "../helpers/wait.js";

interface Harness {
  name: string;
  /** A conversation whose turns each answer `text`, or start and then wait (`hang`) until cancelled. */
  conversation(turn: "text" | "hang"): { chat: Conversation; resumes: () => (string | null)[] };
  threadId: string;
}

const codex: Harness = {
  name: "codex",
  threadId: FAKE_THREAD_ID,
  conversation(turn) {
    const steps = turn === "text" ? fakeSteps.textTurn("ok") : [fakeSteps.turnStarted(), { delayMs: 30_000 }];
    const fake = new InMemoryAppServer({ turn: steps });
    const chat = createCodex({ launcher: fake.launcher, env: {}, interruptGraceMs: 50 }).conversation({
      cwd: "/tmp",
    });
    const resumes = () =>
      fake.launches.map((launch) => {
        const params = launch.peer.requestsOf("thread/resume")[0]?.params as
          { threadId?: string } | undefined;
        return params?.threadId ?? null;
      });
    return { chat, resumes };
  },
};

const claude: Harness = {
  name: "claude",
  threadId: FAKE_CLAUDE_SESSION_ID,
  conversation(turn) {
    const steps =
      turn === "text"
        ? [claudeSteps.init(), ...claudeSteps.text("ok"), claudeSteps.result({ result: "ok" })]
        : [claudeSteps.init(), { delayMs: 30_000 }];
    const fake = new InMemoryClaude({ turn: steps });
    const chat = createClaudeCode({
      launcher: fake.launcher,
      env: { IS_SANDBOX: "1", PATH: process.env.PATH },
      interruptGraceMs: 50,
    }).conversation({ cwd: "/tmp" });
    const resumes = () =>
      fake.launches.map(
        (launch) =>
          launch.spec.args.find((arg) => arg.startsWith("--resume="))?.slice("--resume=".length) ?? null,
      );
    return { chat, resumes };
  },
};

describe.each([codex, claude])("$name conversation.runStreamed()", (harness) => {
  it("streams each turn's events to its terminal, keeps the thread and continues it in the next turn", async () => {
    const { chat, resumes } = harness.conversation("text");
    const first = await collect(chat.runStreamed("one"));
    expect(first.events.at(-1)).toEqual(first.terminal);
    expect(first.terminal).toMatchObject({ outcome: "completed", finalMessage: "ok" });
    expect(
      ofType(first.events, "text.delta")
        .map((event) => event.text)
        .join(""),
    ).toBe("ok");
    expect(chat.threadId).toBe(harness.threadId);
    const second = await collect(chat.runStreamed("two"));
    expect(second.terminal).toMatchObject({ outcome: "completed", threadId: harness.threadId });
    expect(resumes()).toEqual([null, harness.threadId]);
  });

  it("is busy until the session's result settles, for runStreamed() and run() alike", async () => {
    const { chat, resumes } = harness.conversation("text");
    const session = chat.runStreamed("one");
    expect(thrownBy(() => chat.runStreamed("two"))).toBeInstanceOf(ConversationBusyError);
    await expect(chat.run("two")).rejects.toMatchObject({ code: "CONVERSATION_BUSY" });
    await session.result;
    await chat.run("two");
    expect(resumes()).toEqual([null, harness.threadId]);
  });

  it("a turn stopped with session.cancel() after the harness started it keeps its thread", async () => {
    const { chat, resumes } = harness.conversation("hang");
    const session = chat.runStreamed("one");
    const events: string[] = [];
    const read = (async () => {
      for await (const event of session.events) events.push(event.type);
    })();
    await waitFor(() => events.includes("turn.started"), "turn.started");
    session.cancel(new Error("enough"));
    await read;
    expect((await session.result).outcome).toBe("cancelled");
    expect(chat.threadId).toBe(harness.threadId);
    const next = chat.runStreamed("two");
    await waitFor(() => resumes().length === 2, "the second launch");
    next.cancel();
    await next.result;
    expect(resumes()).toEqual([null, harness.threadId]);
  });

  it("throws the options errors before anything starts, and the conversation stays free", async () => {
    const { chat, resumes } = harness.conversation("text");
    expect(thrownBy(() => chat.runStreamed("one", { model: "m" } as never))).toMatchObject({
      code: "OPTION_UNKNOWN",
    });
    expect(thrownBy(() => chat.runStreamed("one", { signal: "no" } as never))).toMatchObject({
      code: "OPTIONS_INVALID",
    });
    expect(resumes()).toEqual([]);
    expect((await collect(chat.runStreamed("one"))).terminal.outcome).toBe("completed");
  });
});
