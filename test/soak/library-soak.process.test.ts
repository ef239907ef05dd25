/**
 * Many sessions in one process through the public client with the default launcher: each one a real child (the
 * executable fake app-server), spawned, registered in the spawn registry, tracked and ended. Afterwards every
 * file descriptor, handle and listener is given back, the registry directory is empty, no child survives, and
 * Node warns about nothing. Leak-freeness only (the figures are in `npm run bench`, group `soak`). Needs
 * `npm run build` (`npm test` builds first).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { HarnessSession } from "../../src/harness/session.js";
import { isAlive } from "../helpers/processes.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { nodeScriptCodex } from "../helpers/codex-bin.js";
import {
  abortListenerCount,
  countResources,
  growthAfterSettling,
  recordWarnings,
} from "../helpers/leak-probe.js";

const FAKE_BIN = fileURLToPath(new URL("../../dist/testkit/fake-app-server-bin.js", import.meta.url));
const SEQUENTIAL = 20;
const CONCURRENT = 12;

let stateDir = "";
const savedStateDir = process.env.RENNET_STATE_DIR;

beforeAll(async () => {
  if (!existsSync(FAKE_BIN))
    throw new Error(`${FAKE_BIN} is missing: run \`npm run build\` first (\`npm test\` does)`);
  // the spawn registry lives under RENNET_STATE_DIR, read at spawn time: a private one for this file
  stateDir = await mkdtemp(path.join(os.tmpdir(), "rennet-soak-state-"));
  process.env.RENNET_STATE_DIR = stateDir;
});

afterAll(async () => {
  if (savedStateDir === undefined) delete process.env.RENNET_STATE_DIR;
  else process.env.RENNET_STATE_DIR = savedStateDir;
  await rm(stateDir, { recursive: true, force: true });
});

describe("many library sessions in one process (executable fake, real children)", () => {
  it(`${SEQUENTIAL} sequential and ${CONCURRENT} concurrent sessions: fds, handles, listeners and the registry return to empty`, async () => {
    const codex = createCodex({
      codex: nodeScriptCodex(FAKE_BIN),
      env: {
        ...process.env,
        RENNET_FAKE_SCRIPT_JSON: JSON.stringify({ turn: fakeSteps.textTurn("soak") }),
      },
    });
    const shutdown = new AbortController();
    const pids: number[] = [];
    const drain = async (session: HarnessSession): Promise<string> => {
      for await (const event of session.events)
        if (event.type === "session.started" && event.pid !== null) pids.push(event.pid);
      return (await session.result).outcome;
    };
    const one = (): Promise<string> =>
      drain(codex.runStreamed({ prompt: "soak", cwd: os.tmpdir(), signal: shutdown.signal }));
    expect(await one()).toBe("completed"); // warm-up: the registry directory is created here
    const warnings = recordWarnings();
    const baseline = countResources();

    for (let i = 0; i < SEQUENTIAL; i++) expect(await one()).toBe("completed");
    const batch = Array.from({ length: CONCURRENT }, one);
    expect(abortListenerCount(shutdown.signal)).toBeLessThanOrEqual(1);
    expect(await Promise.all(batch)).toEqual(Array(CONCURRENT).fill("completed"));

    expect(abortListenerCount(shutdown.signal)).toBe(0);
    expect(await growthAfterSettling(baseline)).toEqual([]);
    expect(await readdir(path.join(stateDir, "spawned"))).toEqual([]);
    expect(pids).toHaveLength(1 + SEQUENTIAL + CONCURRENT);
    expect(pids.filter(isAlive)).toEqual([]);
    expect((await warnings.stop()).map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  }, 60_000);
});
