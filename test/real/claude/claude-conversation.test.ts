/**
 * `claude.conversation()` against the real claude and the loopback Messages model: each turn in a fresh child
 * on the kept thread, the model seeing the earlier turns' history; a thread kept by a turn that was cancelled or
 * failed once Claude started it is one the next turn resumes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { asRecord } from "../../../src/json-record.js";
import type { RecordedRequest } from "../../../src/testkit/model-response-plan.js";
import type { MessagesScenario } from "../../../src/testkit/messages-response-plan.js";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { waitFor } from "../../helpers/wait.js";
import { claudeUnderTest, ClaudeSetups, transcripts } from "./claude-helpers.js";

claudeUnderTest();
const setups = new ClaudeSetups();
afterEach(() => setups.dispose());

const QUESTION = "What is the secret word?";

/** The content of the request's last user message (holding the prompt of the turn that made it), as JSON. */
function lastPrompt(request: RecordedRequest): string {
  const messages: unknown = asRecord(request.body).messages;
  const users = Array.isArray(messages) ? messages.filter((m) => asRecord(m).role === "user") : [];
  return JSON.stringify(asRecord(users.at(-1)).content ?? "");
}

/**
 * Answers by the turn's prompt, not by the request's place: releases before 2.1 make warm-up requests of their
 * own. `first` answers every request but the question's.
 */
function byPrompt(first: MessagesScenario): MessagesScenario {
  return (request, index) =>
    lastPrompt(request).includes(QUESTION)
      ? scenarios.text("The secret word is PAPRIKA.")(request, index)
      : first(request, index);
}

/** The requests that asked the question: the second turn's. */
function questionRequests(requests: readonly RecordedRequest[]): string[] {
  return requests.filter((request) => lastPrompt(request).includes(QUESTION)).map((r) => r.rawBody);
}

describe("real claude: a conversation across two children", () => {
  it("turn 2 resumes the kept thread in a fresh child, and the model sees turn 1's history", async () => {
    const s = await setups.create(byPrompt(scenarios.text("Noted: the secret word is PAPRIKA.")));
    const chat = s.claude.conversation({ cwd: s.cwd, env: s.callEnv });
    const first = await chat.run("Remember this: the secret word is PAPRIKA.");
    expect(first.finalMessage).toBe("Noted: the secret word is PAPRIKA.");
    expect(first.threadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(chat.threadId).toBe(first.threadId);
    expect((await transcripts(s.home)).some((name) => name.includes(first.threadId ?? "?"))).toBe(true);

    const second = await chat.run(QUESTION);
    expect(second.finalMessage).toBe("The secret word is PAPRIKA.");
    expect(chat.threadId).toBe(second.threadId);
    const [asked] = questionRequests(s.model.messagesRequests());
    expect(asked).toContain("Remember this: the secret word is PAPRIKA.");
    expect(asked).toContain("Noted: the secret word is PAPRIKA.");
  });

  it("a first turn cancelled while the model answers keeps a thread the next turn resumes", async () => {
    const s = await setups.create(byPrompt(scenarios.hang()));
    const chat = s.claude.conversation({ cwd: s.cwd, env: s.callEnv });
    const controller = new AbortController();
    const reason = new Error("stop");
    const running = chat.run("Remember this: the secret word is PAPRIKA.", { signal: controller.signal });
    await waitFor(
      () => s.model.messagesRequests().some((r) => r.rawBody.includes("PAPRIKA")),
      "turn 1's request",
    );
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(chat.threadId).toMatch(/^[0-9a-f-]{36}$/);

    const second = await chat.run(QUESTION);
    expect(second.finalMessage).toBe("The secret word is PAPRIKA.");
    const [asked] = questionRequests(s.model.messagesRequests());
    expect(asked).toContain("Remember this: the secret word is PAPRIKA.");
  });

  it("a first turn the model refused keeps a thread the next turn resumes", async () => {
    const s = await setups.create(byPrompt(scenarios.httpError(400, "loopback refuses")));
    const chat = s.claude.conversation({ cwd: s.cwd, env: s.callEnv });
    await expect(chat.run("Remember this: the secret word is PAPRIKA.")).rejects.toMatchObject({
      name: "TurnFailedError",
    });
    expect(chat.threadId).toMatch(/^[0-9a-f-]{36}$/);

    const second = await chat.run(QUESTION);
    expect(second.finalMessage).toBe("The secret word is PAPRIKA.");
    const [asked] = questionRequests(s.model.messagesRequests());
    expect(asked).toContain("Remember this: the secret word is PAPRIKA.");
  });
});
