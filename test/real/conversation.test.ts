import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { sequence, text } from "../../src/testkit/model-scenarios.js";
import { testCodexBefore, testCodexVersion } from "../helpers/codex-bin.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

const caps = codexCapabilities(testCodexVersion());
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

  it("resumes a kept thread by each form of its id that resume accepts: urn:uuid:, 32 digits, braces, upper case", async () => {
    fixture = await startRealCodex(sequence([text("0"), text("1"), text("2"), text("3"), text("4")]));
    const first = await fixture.client.runStreamed({ prompt: "hi", cwd: fixture.cwd, ephemeral: false })
      .result;
    const id = first.threadId ?? "";
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    for (const form of [`urn:uuid:${id}`, id.replaceAll("-", ""), `{${id}}`, id.toUpperCase()]) {
      const next = await fixture.client.runStreamed({ prompt: "again", cwd: fixture.cwd, resume: form })
        .result;
      expect({ form, outcome: next.outcome, threadId: next.threadId }).toEqual({
        form,
        outcome: "completed",
        threadId: id,
      });
    }
  });

  it("resuming an unknown thread fails as thread-not-found (codex's thread/resume refusal)", async () => {
    fixture = await startRealCodex(text("never"));
    const session = fixture.client.runStreamed({
      prompt: "x",
      cwd: fixture.cwd,
      resume: "00000000-0000-0000-0000-000000000000",
    });
    const terminal = await session.result;
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({
      source: "jsonrpc",
      method: "thread/resume",
      refusal: "thread-not-found",
    });
    expect(fixture.model.responsesRequests()).toHaveLength(0);
  });

  it.skipIf(!caps.ephemeralThreads)(
    `a thread whose turn ran ephemeral cannot be resumed: thread-not-found${
      caps.ephemeralThreads
        ? ""
        : ` [skipped: codex ${caps.version} lacks ephemeralThreads: the thread is kept]`
    }`,
    async () => {
      fixture = await startRealCodex(text("ok"));
      const first = await fixture.client.runStreamed({ prompt: "hi", cwd: fixture.cwd }).result;
      expect(first.outcome).toBe("completed");
      const again = await fixture.client.runStreamed({
        prompt: "x",
        cwd: fixture.cwd,
        resume: first.threadId ?? "",
      }).result;
      expect(again.failure).toMatchObject({ method: "thread/resume", refusal: "thread-not-found" });
    },
  );

  it.skipIf(!caps.resumeTakesCwd)(
    `a kept thread resumed in another directory continues there (the call's cwd wins)${
      caps.resumeTakesCwd ? "" : ` [skipped: codex ${caps.version} lacks resumeTakesCwd: the first cwd stays]`
    }`,
    async () => {
      fixture = await startRealCodex(text("ok"));
      const first = await fixture.client.runStreamed({ prompt: "hi", cwd: fixture.cwd, ephemeral: false })
        .result;
      const elsewhere = mkdtempSync(path.join(os.tmpdir(), "rennet-other-cwd-"));
      try {
        const second = await fixture.client.runStreamed({
          prompt: "and now",
          cwd: elsewhere,
          resume: first.threadId ?? "",
        }).result;
        expect(second.outcome).toBe("completed");
        expect(second.threadId).toBe(first.threadId);
        const request = JSON.stringify(fixture.model.responsesRequests().at(-1)?.body ?? "");
        expect(request).toContain(elsewhere);
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    },
  );

  it("two turns resuming one thread at once: each completes, or fails as thread-busy where codex allows one writer (0.171: the second)", async () => {
    fixture = await startRealCodex(sequence([text("0"), text("1"), text("2")]));
    const first = await fixture.client.runStreamed({ prompt: "hi", cwd: fixture.cwd, ephemeral: false })
      .result;
    const resume = first.threadId ?? "";
    const both = await Promise.all(
      ["a", "b"].map((prompt) => fixture!.client.runStreamed({ prompt, cwd: fixture!.cwd, resume }).result),
    );
    for (const terminal of both)
      if (terminal.outcome !== "completed")
        expect(terminal.failure).toMatchObject({ method: "thread/resume", refusal: "thread-busy" });
    if (!testCodexBefore("0.171.0"))
      expect(both.map((terminal) => terminal.outcome).sort()).toEqual(["completed", "failed"]);
  });
});
