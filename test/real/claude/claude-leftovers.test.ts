/**
 * A completed Claude Code turn leaves nothing running once `result` has settled: not a grandchild a command
 * double-forked into a session of its own, and not a Bash command Claude runs in the background (after its
 * `result` and stdin's end, claude itself stays alive for such a task).
 */
import { afterEach, describe, expect, it } from "vitest";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import type { HarnessEvent } from "../../../src/harness/events.js";
import type { HarnessSession } from "../../../src/harness/session.js";
import { waitFor } from "../../helpers/wait.js";
import { ClaudeSetups, claudeUnderTest, ofType, processesWith } from "./claude-helpers.js";

const setups = new ClaudeSetups();
claudeUnderTest();
afterEach(() => setups.dispose());

const marker = (): string => `${6000 + Math.floor(Math.random() * 900)}`;

/**
 * Drains the session; when the command's tool completes, waits (up to 5 s) for a process whose command line
 * holds `pattern`, and says whether one ran then: proof that the scenario left something to clean up.
 */
async function drainWatching(
  session: HarnessSession,
  pattern: string,
): Promise<{ events: HarnessEvent[]; ranAfterCommand: boolean }> {
  const events: HarnessEvent[] = [];
  let ranAfterCommand = false;
  for await (const event of session.events) {
    events.push(event);
    if (event.type !== "tool.completed" || event.tool !== "command") continue;
    ranAfterCommand = await waitFor(() => processesWith(pattern).length > 0, pattern, 5_000).catch(
      () => false,
    );
  }
  return { events, ranAfterCommand };
}

describe("real claude: nothing outlives a completed turn", () => {
  it("a command's double-forked setsid grandchild is gone after result", async () => {
    const m = marker();
    const s = await setups.create(
      scenarios.bash(`(setsid sleep ${m}1 > /dev/null 2>&1 &); echo forked`, { then: "it forked" }),
    );
    const session = s.claude.runStreamed({ prompt: "Fork it", cwd: s.cwd, env: s.callEnv });
    const { events, ranAfterCommand } = await drainWatching(session, `sleep ${m}1`);
    const terminal = await session.result;
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    // the scenario is what it claims: the command returned while its grandchild still ran
    expect(ofType(events, "tool.completed")).toEqual([
      expect.objectContaining({ tool: "command", status: "completed" }),
    ]);
    expect(ranAfterCommand).toBe(true);
    expect(processesWith(`sleep ${m}1`)).toEqual([]);
    expect(processesWith(String(ofType(events, "session.started")[0]?.pid))).toEqual([]);
  });

  it("a Bash command Claude runs in the background is gone after result, and so is claude", async () => {
    const m = marker();
    const s = await setups.create(
      scenarios.toolUse(
        "Bash",
        { command: `echo started; exec sleep ${m}2`, description: "a long task", run_in_background: true },
        { then: "it runs in the background" },
      ),
    );
    const session = s.claude.runStreamed({ prompt: "Start it", cwd: s.cwd, env: s.callEnv });
    const { events, ranAfterCommand } = await drainWatching(session, `sleep ${m}2`);
    const terminal = await session.result;
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    expect(ofType(events, "tool.started")).toEqual([expect.objectContaining({ tool: "command" })]);
    expect(ranAfterCommand).toBe(true);
    expect(processesWith(`sleep ${m}2`)).toEqual([]);
    expect(processesWith(String(ofType(events, "session.started")[0]?.pid))).toEqual([]);
  });
});
