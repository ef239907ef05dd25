import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The state directory on a file system that stopped answering: the reaper a session start runs never finishes.
const STALLED = "stalled-state-mount";
vi.mock("node:fs/promises", async (importOriginal) =>
  (await import("../helpers/stalled-fs.js")).stalledFsPromises(await importOriginal(), "stalled-state-mount"),
);

const { createCodex } = await import("../../src/codex/client/codex-client.js");
const { createClaudeCode } = await import("../../src/claude/client/claude-client.js");
const { settledWithin } = await import("../../src/process/settled-within.js");
const { fakeSteps } = await import("../../src/testkit/fake-script.js");
const { InMemoryAppServer } = await import("../../src/testkit/in-memory-app-server.js");
const { InMemoryClaude } = await import("../../src/testkit/in-memory-claude.js");

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.RENNET_STATE_DIR;
  process.env.RENNET_STATE_DIR = path.join("/nonexistent", STALLED);
});
afterEach(() => {
  if (saved === undefined) delete process.env.RENNET_STATE_DIR;
  else process.env.RENNET_STATE_DIR = saved;
});

describe("a session start whose reaper never finishes", () => {
  it("starts the codex turn anyway, which completes", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const run = createCodex({ launcher: fake.launcher, env: {}, reapOrphans: true }).run({
      prompt: "hi",
      cwd: "/tmp",
    });
    expect(await settledWithin(run, 8_000)).toBe(true);
    expect((await run).terminal.outcome).toBe("completed");
  });

  it("starts the Claude Code turn anyway, which completes", async () => {
    const fake = new InMemoryClaude();
    const run = createClaudeCode({
      launcher: fake.launcher,
      env: { IS_SANDBOX: "1" },
      reapOrphans: true,
    }).run({
      prompt: "hi",
      cwd: "/tmp",
    });
    expect(await settledWithin(run, 8_000)).toBe(true);
    expect((await run).terminal.outcome).toBe("completed");
  });
});
