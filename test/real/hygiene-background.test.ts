import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HarnessEvent } from "../../src/harness/events.js";
import { command } from "../../src/testkit/model-scenarios.js";
import { pinnedCodexAvailable } from "../helpers/codex-bin.js";
import { startHygieneCodex, type HygieneCodex } from "../fixtures/hygiene/hygiene-codex.js";
import { isAlive, processesWithMarker, stillAlive, waitForPids } from "../fixtures/hygiene/process-probe.js";

// Issue 3, real binary: a turn that completes while a command it started keeps running in the background
// (the command outlived its yield_time_ms) leaves nothing behind once `result` has settled.

let codex: HygieneCodex | null = null;
afterEach(async () => {
  await codex?.dispose();
  codex = null;
});

/** Drives a turn to its end; at the first text delta (the model's answer after the yield) records what still runs. */
async function runToCompletion(
  hygiene: HygieneCodex,
  pidFiles: readonly string[],
): Promise<{ events: HarnessEvent[]; runningWhenAnswered: number[] }> {
  const events: HarnessEvent[] = [];
  let runningWhenAnswered: number[] = [];
  const session = hygiene.client.runStreamed({
    prompt: "start it in the background",
    cwd: hygiene.fixture.cwd,
  });
  for await (const event of session.events) {
    events.push(event);
    if (event.type === "session.started" && event.pid !== null) hygiene.pids.add(event.pid);
    if (event.type === "text.delta" && runningWhenAnswered.length === 0) {
      const pids: number[] = [];
      for (const file of pidFiles) pids.push(...(await waitForPids(path.join(hygiene.fixture.cwd, file), 1)));
      for (const pid of pids) hygiene.pids.add(pid);
      runningWhenAnswered = pids.filter(isAlive);
    }
  }
  const terminal = await session.result;
  expect(terminal.outcome).toBe("completed");
  expect(terminal.finalMessage).toBe("started in the background");
  return { events, runningWhenAnswered };
}

describe.runIf(process.platform === "linux" && pinnedCodexAvailable())(
  "real codex: background commands after a completed turn",
  () => {
    it("a command still running in the background (with a setsid grandchild) when the turn completes is gone after result", async () => {
      codex = await startHygieneCodex(
        command(
          "setsid sleep 302 & echo $! > grandchild.pid; sleep 303 & echo $! > background.pid; echo $$ > command.pid; echo started; wait",
          { then: "started in the background", yieldTimeMs: 500 },
        ),
      );
      const { events, runningWhenAnswered } = await runToCompletion(codex, [
        "command.pid",
        "background.pid",
        "grandchild.pid",
      ]);

      // the scenario is what it claims: codex returned to the model while the command and its children still ran
      expect(runningWhenAnswered).toHaveLength(3);
      expect(events.filter((event) => event.type === "tool.started")).toHaveLength(1);
      codex.expectNothingSurvives();
    });

    // KNOWN GAP (reported): the brief's command double-forks its grandchild into a new session, so it is an orphan
    // of init from the first millisecond: no tree walk can see it, and neither can codex's process-group kill
    // (the plain background `sleep 303 &`, left in the command's group, is killed). The walk is off so that no
    // lucky tick can rescue it. This test pins the gap precisely; once the tree is marked
    // (docs/process-hygiene.md, "Known gaps") it fails: then replace the last assertions with
    // `codex.expectNothingSurvives()`.
    it("KNOWN GAP: a double-forked setsid grandchild of a finished command survives the completed turn (and nothing else does)", async () => {
      codex = await startHygieneCodex(
        command(
          "(setsid sleep 302 & echo $! > grandchild.pid) ; sleep 303 & echo $! > background.pid; echo $$ > command.pid; echo started",
          { then: "started in the background", yieldTimeMs: 500 },
        ),
        { trackIntervalMs: 0 },
      );
      await runToCompletion(codex, ["command.pid", "background.pid", "grandchild.pid"]);
      const [grandchild] = await waitForPids(path.join(codex.fixture.cwd, "grandchild.pid"), 1);
      for (const proc of codex.recorder.processes) if (proc.pid !== null) codex.pids.add(proc.pid);
      expect(stillAlive(codex.pids)).toEqual([grandchild]);
      expect(processesWithMarker(codex.marker)).toEqual([grandchild]);
    });
  },
);
