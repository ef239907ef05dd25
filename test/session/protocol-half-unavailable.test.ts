/**
 * A damaged install whose turn protocol half cannot be loaded (the module a turn loads once its child is
 * spawned): the turn fails `RUNNER_UNAVAILABLE` naming the fix, and `steer()` rejects with the documented
 * `SteerError`, never the loader's own error.
 */
import { describe, expect, it, vi } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import type { HarnessSession } from "../../src/harness/session.js";

vi.mock("../../src/claude/turn/claude-turn-protocol.js", () => {
  throw new Error("Cannot find module 'claude-turn-protocol.js'");
});
vi.mock("../../src/codex/turn/turn-child.js", () => {
  throw new Error("Cannot find module 'turn-child.js'");
});

describe("a turn whose protocol half cannot be loaded", () => {
  it("Claude Code: the turn fails RUNNER_UNAVAILABLE and steer() rejects SteerError TURN_NOT_RUNNING", async () => {
    const fake = new InMemoryClaude({ turn: [claudeSteps.init(), claudeSteps.result({ result: "ok" })] });
    const session = createClaudeCode({
      launcher: fake.launcher,
      env: { PATH: process.env.PATH, IS_SANDBOX: "1" },
    }).runStreamed({
      prompt: "go",
    });
    await expectRunnerUnavailable(session, "claude");
  });

  it("Codex: the same", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({ prompt: "go" });
    await expectRunnerUnavailable(session, "codex");
  });
});

/** `steer()` rejects as the turn is not running, and the turn fails before `agent` starts, naming the fix. */
async function expectRunnerUnavailable(session: HarnessSession, agent: string): Promise<void> {
  const steer = session.steer("keep going");
  await expect(steer).rejects.toMatchObject({ name: "SteerError", code: "TURN_NOT_RUNNING" });
  for await (const _event of session.events);
  const terminal = await session.result;
  expect(terminal.failure).toMatchObject({ source: "spawn", code: "RUNNER_UNAVAILABLE" });
  expect(terminal.failure?.message).toMatch(
    new RegExp(
      `^${agent} was not started: Rennet could not load its turn runner .*reinstall rennet-adapters`,
    ),
  );
}
