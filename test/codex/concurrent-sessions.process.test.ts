/**
 * Process test: many sessions of one client at once in one process, against the executable fake app-server,
 * with the default launcher (spawn registry on, a reaper at every session start). All entries share this
 * process as their owner; no session's reaper may end another's tree. Needs the build
 * (`npx tsc -p tsconfig.build.json`).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import { FAKE_APP_SERVER_BIN, requireBuild } from "../cli/helpers/cli-process.js";
import { nodeScriptCodex } from "../helpers/codex-bin.js";
import { expectAllCompletedAndNothingLeft, watchRegistryPeak } from "../helpers/concurrent-sessions.js";
import { MARK_VAR, killLeftovers, newMarker, processesWithMarker } from "../helpers/processes.js";
import { collect } from "../helpers/collect.js";

const SESSIONS = 16;
const savedStateDir = process.env.RENNET_STATE_DIR;
let stateDir: string | null = null;
let marker = "";
const pids = new Set<number>();

beforeAll(() => {
  requireBuild();
});

afterEach(async () => {
  killLeftovers([...pids, ...(marker ? processesWithMarker(marker) : [])]);
  pids.clear();
  if (savedStateDir === undefined) delete process.env.RENNET_STATE_DIR;
  else process.env.RENNET_STATE_DIR = savedStateDir;
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
  stateDir = null;
});

describe.runIf(process.platform === "linux")("many sessions at once in one process", () => {
  it(`${SESSIONS} concurrent sessions of one client: one terminal each, nothing left, registry empty`, async () => {
    stateDir = await mkdtemp(join(tmpdir(), "rennet-in-process-state-"));
    // the registry and the reaper read their directory from this process's environment
    process.env.RENNET_STATE_DIR = stateDir;
    marker = newMarker();
    const script: FakeScript = {
      turn: [fakeSteps.turnStarted(), { delayMs: 500 }, ...fakeSteps.textTurn("in process").slice(1)],
    };
    const client = createCodex({
      codex: nodeScriptCodex(FAKE_APP_SERVER_BIN),
      env: { ...process.env, RENNET_FAKE_SCRIPT_JSON: JSON.stringify(script), [MARK_VAR]: marker },
      reapOrphans: true,
    });
    const registry = watchRegistryPeak(join(stateDir, "spawned"));
    const results = await Promise.all(
      Array.from({ length: SESSIONS }, (_, index) =>
        collect(client.runStreamed({ prompt: `session ${index}`, cwd: stateDir ?? undefined })),
      ),
    );
    expect(await registry.stop()).toBeGreaterThan(1);

    const sessions = results.map(({ events, terminal }, index) => ({
      events,
      terminal,
      describe: () => `session ${index}: ${JSON.stringify(events)}`,
    }));
    await expectAllCompletedAndNothingLeft(sessions, "in process", {
      marker,
      registryDir: join(stateDir, "spawned"),
      pids,
    });
  });
});
