/**
 * Process test: many `rennet codex run --json` processes at once, all sharing one spawn registry, against the
 * executable fake app-server. Every session's start runs the crash reaper while the others' entries are live:
 * none may end another's tree. Needs the build (`npx tsc -p tsconfig.build.json`).
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, it } from "vitest";
import { fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import { MARK_VAR, killLeftovers, newMarker, processesWithMarker } from "../helpers/processes.js";
import { FAKE_APP_SERVER_BIN, requireBuild, type CliProcess } from "./helpers/cli-process.js";
import { expectAllCompletedAndNothingLeft, runCliSessionsAtOnce } from "../helpers/concurrent-sessions.js";

const SESSIONS = 16;

let dir: string;
let wrapper: string;
const runs: CliProcess[] = [];
const pids = new Set<number>();
let marker = "";

beforeAll(async () => {
  requireBuild();
  dir = await mkdtemp(join(tmpdir(), "rennet-cli-concurrent-"));
  wrapper = join(dir, "fake-codex");
  await writeFile(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${FAKE_APP_SERVER_BIN}" "$@"\n`);
  await chmod(wrapper, 0o755);
});

afterEach(() => {
  for (const run of runs.splice(0))
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  killLeftovers([...pids, ...(marker ? processesWithMarker(marker) : [])]);
  pids.clear();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === "linux")("concurrent CLI sessions (built CLI, fake app-server)", () => {
  it(`${SESSIONS} sessions at once with one registry: each ends with one terminal frame, nothing is left`, async () => {
    const stateDir = join(dir, "state");
    marker = newMarker();
    // a short pause inside the turn keeps the sessions overlapping while later ones start and reap
    const script: FakeScript = {
      turn: [
        fakeSteps.turnStarted(),
        { delayMs: 500 },
        ...fakeSteps.textTurn("Hello there", ["Hello", " there"]).slice(1),
      ],
    };
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      RENNET_FAKE_SCRIPT_JSON: JSON.stringify(script),
      RENNET_STATE_DIR: stateDir,
      [MARK_VAR]: marker,
    };
    const sessions = await runCliSessionsAtOnce(SESSIONS, wrapper, "session", { env, cwd: dir, runs });
    await expectAllCompletedAndNothingLeft(sessions, "Hello there", {
      marker,
      registryDir: join(stateDir, "spawned"),
      pids,
    });
  });
});
