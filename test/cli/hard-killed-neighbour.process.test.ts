/**
 * Process test: two `rennet codex run --json` processes share one spawn registry; one is SIGKILLed mid-turn.
 * The other's turn completes untouched; the killed one's tree (an app-server that ignores stdin EOF, and its
 * child) stays orphaned until the next session starts, whose reaper ends it and deletes its entry. Needs the
 * build (`npx tsc -p tsconfig.build.json`).
 */
import { chmod, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import {
  MARK_VAR,
  describeProcess,
  isAlive,
  killLeftovers,
  newMarker,
  processesWithMarker,
  stillAlive,
  waitForPids,
} from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import {
  FAKE_APP_SERVER_BIN,
  requireBuild,
  startCliProcess,
  type CliProcess,
} from "./helpers/cli-process.js";
import { appServerPid, onlyTerminal } from "../helpers/concurrent-sessions.js";

let dir: string;
const runs: CliProcess[] = [];
const pids = new Set<number>();
const markers: string[] = [];

beforeAll(async () => {
  requireBuild();
  dir = await mkdtemp(join(tmpdir(), "rennet-cli-neighbour-"));
});

afterEach(() => {
  for (const run of runs.splice(0))
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  killLeftovers([...pids, ...markers.splice(0).flatMap((marker) => processesWithMarker(marker))]);
  pids.clear();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A `--codex-bin` for the fake app-server; `prelude` runs in the shell first (its `$!` children stay). */
async function fakeCodex(name: string, prelude = ""): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `#!/bin/sh\n${prelude}exec "${process.execPath}" "${FAKE_APP_SERVER_BIN}" "$@"\n`);
  await chmod(file, 0o755);
  return file;
}

function environment(script: FakeScript, stateDir: string, marker: string): NodeJS.ProcessEnv {
  markers.push(marker);
  return {
    ...process.env,
    RENNET_FAKE_SCRIPT_JSON: JSON.stringify(script),
    RENNET_STATE_DIR: stateDir,
    [MARK_VAR]: marker,
  };
}

async function untilTurnStarted(run: CliProcess, what: string): Promise<number> {
  return waitFor(() => {
    if (run.child.exitCode !== null)
      throw new Error(`${what} exited early: ${run.stdout()}\n${run.stderr()}`);
    const events = run.events();
    const pid = appServerPid(events);
    return pid !== null && events.some((event) => event.type === "turn.started") ? pid : undefined;
  }, `${what} to start its turn`);
}

describe.runIf(process.platform === "linux")("two Rennet processes, one SIGKILLed mid-turn", () => {
  it("the other's turn completes; the dead one's tree is reaped by the next session", async () => {
    const stateDir = join(dir, "state");
    const registryDir = join(stateDir, "spawned");
    const killedMarker = newMarker();
    const survivorMarker = newMarker();
    const nextMarker = newMarker();
    // the killed session's app-server outlives its Rennet (ignores stdin EOF) and has a child of its own
    const childPidFile = join(dir, "orphan-child.pid");
    const killedBin = await fakeCodex("fake-codex-orphaning", `sleep 300 & echo $! > "${childPidFile}"\n`);
    const plainBin = await fakeCodex("fake-codex");

    const killed = startCliProcess(["codex", "run", "--json", "--codex-bin", killedBin, "hang"], {
      env: environment(
        { onStdinEnd: "ignore", turn: [fakeSteps.turnStarted(), { delayMs: 300_000 }] },
        stateDir,
        killedMarker,
      ),
      cwd: dir,
    });
    runs.push(killed);
    const killedServer = await untilTurnStarted(killed, "the session to kill");
    // the survivor starts while its neighbour is mid-turn: its reaper must leave the neighbour's live tree alone
    const survivor = startCliProcess(["codex", "run", "--json", "--codex-bin", plainBin, "slow"], {
      env: environment(
        {
          turn: [
            fakeSteps.turnStarted(),
            { delayMs: 2_000 },
            ...fakeSteps.textTurn("still here", ["still", " here"]).slice(1),
          ],
        },
        stateDir,
        survivorMarker,
      ),
      cwd: dir,
    });
    runs.push(survivor);
    const survivorServer = await untilTurnStarted(survivor, "the surviving session");
    const [orphanChild] = await waitForPids(childPidFile, 1);
    if (orphanChild === undefined) throw new Error("the fake wrote no child pid");
    for (const pid of [killedServer, survivorServer, orphanChild]) pids.add(pid);
    expect(await readdir(registryDir)).toHaveLength(2);

    killed.child.kill("SIGKILL");
    expect(await killed.exit).toBeNull();
    expect(survivor.child.exitCode, "the survivor must still be mid-turn when its neighbour dies").toBeNull();

    // the survivor completes normally, with one terminal frame, and leaves nothing behind
    expect(await survivor.exit, survivor.stderr()).toBe(0);
    const survivorTerminal = onlyTerminal(survivor.events(), () => survivor.stdout());
    expect(survivorTerminal).toMatchObject({ outcome: "completed", finalMessage: "still here" });
    expect(processesWithMarker(survivorMarker).map(describeProcess)).toEqual([]);

    // the killed one's tree is orphaned, not ended by anyone, and its entry is still there
    expect(isAlive(killedServer) && isAlive(orphanChild)).toBe(true);
    const orphanTree = processesWithMarker(killedMarker);
    expect(orphanTree).toEqual(expect.arrayContaining([killedServer, orphanChild]));
    for (const pid of orphanTree) pids.add(pid);
    expect(await readdir(registryDir)).toHaveLength(1);

    // the next session's reaper ends it before its own turn
    const next = startCliProcess(["codex", "run", "--json", "--codex-bin", plainBin, "next"], {
      env: environment({ turn: fakeSteps.textTurn("next done") }, stateDir, nextMarker),
      cwd: dir,
    });
    runs.push(next);
    expect(await next.exit, next.stderr()).toBe(0);
    expect(onlyTerminal(next.events(), () => next.stdout()).outcome).toBe("completed");
    const nextServer = appServerPid(next.events());
    if (nextServer !== null) pids.add(nextServer);

    expect(stillAlive(pids).map(describeProcess)).toEqual([]);
    for (const marker of [killedMarker, survivorMarker, nextMarker])
      expect(processesWithMarker(marker).map(describeProcess)).toEqual([]);
    expect(await readdir(registryDir)).toEqual([]);
  });
});
