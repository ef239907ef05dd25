import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HarnessEvent } from "../../src/harness/events.js";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { command } from "../../src/testkit/model-scenarios.js";
import { testCodexVersion } from "../helpers/codex-bin.js";

import { startHygieneCodex, type HygieneCodex } from "../fixtures/hygiene/hygiene-codex.js";
import { isAlive, waitForPids } from "../helpers/processes.js";

// The real binary: a turn that completes while a command it started keeps running in the background
// (the command outlived its yield_time_ms) leaves nothing behind once `result` has settled.

let codex: HygieneCodex | null = null;
afterEach(async () => {
  await codex?.dispose();
  codex = null;
});

const caps = codexCapabilities(testCodexVersion());
const PID_FILES = ["command.pid", "background.pid", "grandchild.pid"] as const;

/** The pids the command wrote into the cwd (synchronously; files not written yet give none). */
function writtenPids(cwd: string): number[] {
  const pids: number[] = [];
  for (const file of PID_FILES) {
    try {
      pids.push(...(readFileSync(path.join(cwd, file), "utf8").match(/\d+/g) ?? []).map(Number));
    } catch {
      // not written (yet)
    }
  }
  return pids;
}

/**
 * A hygiene codex whose launcher notes, at the moment the runner starts tearing the tree down (after the
 * terminal frame), which of the command's processes still run: proof that the turn completed while they ran.
 */
async function startWatched(
  cmd: string,
  trackIntervalMs?: number,
): Promise<{ hygiene: HygieneCodex; runningAtTeardown: () => number[] | null }> {
  let runningAtTeardown: number[] | null = null;
  let cwd = "";
  const hygiene = await startHygieneCodex(
    command(cmd, { then: "started in the background", yieldTimeMs: 500 }),
    {
      ...(trackIntervalMs !== undefined ? { trackIntervalMs } : {}),
      onSpawn: (proc) => {
        const terminate = proc.terminate.bind(proc);
        (proc as { terminate: typeof proc.terminate }).terminate = (options) => {
          runningAtTeardown ??= writtenPids(cwd).filter(isAlive);
          return terminate(options);
        };
      },
    },
  );
  cwd = hygiene.fixture.cwd;
  return { hygiene, runningAtTeardown: () => runningAtTeardown };
}

/** Drives a turn to its end, checks that it completed with the model's answer, and collects the pids. */
async function runToCompletion(hygiene: HygieneCodex): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  const session = hygiene.client.runStreamed({
    prompt: "start it in the background",
    cwd: hygiene.fixture.cwd,
  });
  for await (const event of session.events) {
    events.push(event);
    if (event.type === "session.started" && event.pid !== null) hygiene.pids.add(event.pid);
  }
  const terminal = await session.result;
  expect(terminal.outcome).toBe("completed");
  expect(terminal.finalMessage).toBe("started in the background");
  for (const pid of writtenPids(hygiene.fixture.cwd)) hygiene.pids.add(pid);
  for (const proc of hygiene.recorder.processes) if (proc.pid !== null) hygiene.pids.add(proc.pid);
  return events;
}

describe.runIf(process.platform === "linux")("real codex: background commands after a completed turn", () => {
  it("a command still running in the background (with a setsid grandchild) when the turn completes is gone after result", async () => {
    const watched = await startWatched(
      "setsid sleep 302 & echo $! > grandchild.pid; sleep 303 & echo $! > background.pid; echo $$ > command.pid; echo started; wait",
    );
    codex = watched.hygiene;
    const events = await runToCompletion(codex);

    // the scenario is what it claims: the turn completed while the command and both its children still ran
    // (codex went back to the model after the yield and never completed the item, so Rennet completed it with
    // status "unknown" before the terminal frame); Rennet's teardown ended them
    expect(events.filter((event) => event.type === "tool.started")).toHaveLength(1);
    const completed = events.filter((event) => event.type === "tool.completed");
    // (without unifiedExecTool, before 0.98, the model's `shell` tool does not yield: codex ends the command at
    // the call's timeout and completes the item `failed` itself, the children it could not reach still running)
    expect(completed.map((event) => event.status)).toEqual([caps.unifiedExecTool ? "unknown" : "failed"]);
    // (there, codex's timeout kill reaches the command's group; only the setsid grandchild is left)
    expect(watched.runningAtTeardown()).toHaveLength(caps.unifiedExecTool ? 3 : 1);
    codex.expectNothingSurvives();
  });

  // The brief's command double-forks its grandchild into a new session, so it is an orphan of init from the
  // first millisecond: no tree walk can see it, and neither can codex's process-group kill (the plain
  // background `sleep 303 &`, left in the command's group, is). The walk is off so that no lucky tick can
  // rescue it: only the inherited RENNET_TREE_ID marker finds it.
  it("a double-forked setsid grandchild of a finished command does not survive the completed turn", async () => {
    const watched = await startWatched(
      "(setsid sleep 302 & echo $! > grandchild.pid) ; sleep 303 & echo $! > background.pid; echo $$ > command.pid; echo started",
      0,
    );
    codex = watched.hygiene;
    await runToCompletion(codex);
    const [grandchild] = await waitForPids(path.join(codex.fixture.cwd, "grandchild.pid"), 1);
    expect(grandchild).toBeGreaterThan(0);
    codex.expectNothingSurvives();
  });
});
