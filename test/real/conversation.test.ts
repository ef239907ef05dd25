import { readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sequence, text } from "../../src/testkit/model-scenarios.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

describe("real codex: a conversation across two children", () => {
  it("turn 2 runs in a fresh child on the kept thread, and the model sees turn 1's history", async () => {
    fixture = await startRealCodex(
      sequence([text("Noted: the secret word is PAPRIKA."), text("The secret word is PAPRIKA.")]),
    );
    const chat = fixture.client.conversation({ cwd: fixture.cwd });
    const first = await chat.run("Remember this: the secret word is PAPRIKA.");
    expect(first.finalMessage).toBe("Noted: the secret word is PAPRIKA.");
    expect(first.threadId).toEqual(expect.any(String));
    expect(chat.threadId).toBe(first.threadId);

    const second = await chat.run("What is the secret word?");
    expect(second.finalMessage).toBe("The secret word is PAPRIKA.");
    expect(second.threadId).toBe(first.threadId);

    // the second model request carries turn 1's user message and answer: only a resumed thread has them
    const requests = fixture.model.responsesRequests();
    expect(requests).toHaveLength(2);
    const secondBody = JSON.stringify(requests[1]?.body);
    expect(secondBody).toContain("the secret word is PAPRIKA");
    expect(secondBody).toContain("Noted: the secret word is PAPRIKA.");
    expect(secondBody).toContain("What is the secret word?");
    // the kept thread is recorded in CODEX_HOME/sessions (that record is what resume reads)
    expect(readdirSync(path.join(fixture.home, "sessions"), { recursive: true }).length).toBeGreaterThan(0);
  });

  it("resuming an unknown thread fails with codex's thread/resume error", async () => {
    fixture = await startRealCodex(text("never"));
    const session = fixture.client.runStreamed({
      prompt: "x",
      cwd: fixture.cwd,
      resume: "00000000-0000-0000-0000-000000000000",
    });
    const terminal = await session.result;
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "jsonrpc", method: "thread/resume" });
    expect(fixture.model.responsesRequests()).toHaveLength(0);
  });
});
