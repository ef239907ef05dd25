import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { text } from "../../src/testkit/model-scenarios.js";
import { TEST_CODEX_BIN } from "../helpers/codex-bin.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";
import {
  MARK_VAR,
  killLeftovers,
  newMarker,
  processesWithMarker,
} from "../fixtures/hygiene/process-probe.js";
import { requireBuild, startCliProcess, type CliProcess } from "../cli/helpers/cli-process.js";
import { expectAllCompletedAndNothingLeft, watchRegistryPeak } from "../helpers/concurrent-sessions.js";

// Several `rennet codex run --json` processes at once against the real codex (one loopback model, one
// CODEX_HOME, one spawn registry): each session's reaper runs while the others' entries are live, and every
// session completes with one terminal frame and leaves nothing running. Needs the build
// (`npx tsc -p tsconfig.build.json`; `npm test` makes it).

const SESSIONS = 8;

let fixture: RealCodexFixture | null = null;
let stateDir: string | null = null;
let marker = "";
const runs: CliProcess[] = [];
const pids = new Set<number>();
afterEach(async () => {
  for (const run of runs.splice(0))
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  killLeftovers([...pids, ...(marker ? processesWithMarker(marker) : [])]);
  pids.clear();
  await fixture?.dispose();
  fixture = null;
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
  stateDir = null;
});

describe.runIf(process.platform === "linux")("rennet codex run (built CLI, real codex): concurrency", () => {
  beforeAll(() => {
    requireBuild();
  });

  it(`${SESSIONS} concurrent sessions share one registry: one terminal frame each, nothing left`, async () => {
    fixture = await startRealCodex(text("concurrent hello"));
    stateDir = await mkdtemp(path.join(os.tmpdir(), "rennet-cli-concurrent-state-"));
    marker = newMarker();
    const env: NodeJS.ProcessEnv = { ...fixture.env, RENNET_STATE_DIR: stateDir, [MARK_VAR]: marker };
    const registry = watchRegistryPeak(path.join(stateDir, "spawned"));
    for (let index = 0; index < SESSIONS; index++) {
      runs.push(
        startCliProcess(["codex", "run", "--json", "--codex-bin", TEST_CODEX_BIN, `say hello ${index}`], {
          env,
          cwd: fixture.cwd,
        }),
      );
    }
    const codes = await Promise.all(runs.map((run) => run.exit));
    // the sessions overlapped: later ones reaped while earlier ones' entries were live
    expect(await registry.stop()).toBeGreaterThan(1);

    const sessions = runs.map((run, index) => ({
      events: run.events(),
      exitCode: codes[index],
      describe: () => `session ${index}: ${run.stdout()}\n${run.stderr()}`,
    }));
    await expectAllCompletedAndNothingLeft(sessions, "concurrent hello", {
      marker,
      registryDir: path.join(stateDir, "spawned"),
      pids,
    });
    expect(fixture.model.responsesRequests().length).toBeGreaterThanOrEqual(SESSIONS);
  });
});
