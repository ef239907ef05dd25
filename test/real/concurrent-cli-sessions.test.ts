import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { text } from "../../src/testkit/model-scenarios.js";
import { tempDir } from "../helpers/temp.js";
import { TEST_CODEX_BIN } from "../helpers/codex-bin.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";
import { MARK_VAR, killLeftovers, newMarker, processesWithMarker } from "../helpers/processes.js";
import { requireBuild, type CliProcess } from "../cli/helpers/cli-process.js";
import { expectAllCompletedAndNothingLeft, runCliSessionsAtOnce } from "../helpers/concurrent-sessions.js";

// Several `rennet codex run --json` processes at once against the real codex (one loopback model, one
// CODEX_HOME, one spawn registry): each session's reaper runs while the others' entries are live, and every
// session completes with one terminal frame and leaves nothing running. Needs the build
// (`npx tsc -p tsconfig.build.json`; `npm test` makes it).

const SESSIONS = 8;

let fixture: RealCodexFixture | null = null;
let stateDir = "";
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
});

describe.runIf(process.platform === "linux")("rennet codex run (built CLI, real codex): concurrency", () => {
  beforeAll(() => {
    requireBuild();
  });

  it(`${SESSIONS} concurrent sessions share one registry: one terminal frame each, nothing left`, async () => {
    fixture = await startRealCodex(text("concurrent hello"));
    stateDir = await tempDir("cli-concurrent-state");
    marker = newMarker();
    const env: NodeJS.ProcessEnv = { ...fixture.env, RENNET_STATE_DIR: stateDir, [MARK_VAR]: marker };
    const sessions = await runCliSessionsAtOnce(SESSIONS, TEST_CODEX_BIN, "say hello", {
      env,
      cwd: fixture.cwd,
      runs,
    });
    await expectAllCompletedAndNothingLeft(sessions, "concurrent hello", {
      marker,
      registryDir: path.join(stateDir, "spawned"),
      pids,
    });
    expect(fixture.model.responsesRequests().length).toBeGreaterThanOrEqual(SESSIONS);
  });
});
