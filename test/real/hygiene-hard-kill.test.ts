import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { isRunningState } from "../../src/process/process-table-parse.js";
import { text } from "../../src/testkit/model-scenarios.js";
import { TEST_CODEX_BIN } from "../helpers/codex-bin.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";
import { midCommandWithSetsidGrandchild, waitUntilRegistryLists } from "../fixtures/hygiene/hygiene-codex.js";
import { tempDir } from "../helpers/temp.js";
import { HardKillScene } from "../helpers/hard-killed-stand-in.js";
import { ProcessLedger } from "../helpers/process-ledger.js";
import { isAlive, waitForPids, waitUntilSessionLeader } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import { snapshotProcessTree } from "../../src/internal/test-hooks.js";

// The real binary: a Rennet process that dies hard (SIGKILL) mid-turn leaves a spawn registry entry; the next
// session started with the same RENNET_STATE_DIR reaps what survived of the old tree.

let fixture: RealCodexFixture | null = null;
let stateDir = "";
const ledger = new ProcessLedger();
const pids = ledger.pids;
const scene = new HardKillScene(ledger);
afterEach(async () => {
  scene.end();
  await fixture?.dispose();
  fixture = null;
});

describe.runIf(process.platform === "linux")("real codex: Rennet killed hard mid-turn", () => {
  it("the next session start reaps what survived of the old tree (a recorded setsid grandchild)", async () => {
    fixture = await startRealCodex(midCommandWithSetsidGrandchild());
    stateDir = await tempDir("hygiene-state");
    const registryDir = path.join(stateDir, "spawned");

    // 1. a separate Rennet process starts the turn with the public client's defaults
    const child = scene.start("codex", TEST_CODEX_BIN, fixture.cwd, {
      ...fixture.env,
      RENNET_STATE_DIR: stateDir,
    });
    const started = await child.next("session.started");
    const appServer = started.pid;
    if (typeof appServer !== "number")
      throw new Error(`session.started has no pid: ${JSON.stringify(started)}`);
    pids.add(appServer);
    await child.next("tool.started");
    const [commandPid] = await waitForPids(path.join(fixture.cwd, "command.pid"), 1);
    const [grandchild] = await waitForPids(path.join(fixture.cwd, "grandchild.pid"), 1);
    if (commandPid === undefined || grandchild === undefined) throw new Error("the command wrote no pids");
    pids.add(commandPid).add(grandchild);
    await waitUntilSessionLeader(grandchild);
    // what the registry can reach: the child, plus descendants its periodic walk recorded
    await waitUntilRegistryLists(registryDir, [commandPid, grandchild]);
    const oldTree = (await snapshotProcessTree(appServer))
      .filter((row) => isRunningState(row.state))
      .map((row) => row.pid);
    for (const pid of oldTree) pids.add(pid);
    expect(oldTree).toEqual(expect.arrayContaining([appServer, commandPid, grandchild]));

    // 2. Rennet dies hard: codex sees stdin EOF, exits and kills its command's process group, but the setsid
    //    grandchild is in a session of its own and is orphaned to init
    child.child.kill("SIGKILL");
    await child.exited;
    await waitFor(
      () => (isAlive(appServer) || isAlive(commandPid) ? undefined : true),
      "codex to exit after its stdin closed",
    );
    expect(isAlive(grandchild)).toBe(true);
    expect(await readdir(registryDir)).toHaveLength(1);

    // 3. a new session with the same state dir reaps it before spawning its own child
    scene.useStateDir(stateDir);
    fixture.model.setScenario(text("fresh turn"));
    const next = createCodex({ codex: TEST_CODEX_BIN, env: fixture.env }).runStreamed({
      prompt: "hello",
      cwd: fixture.cwd,
    });
    for await (const event of next.events)
      if (event.type === "session.started" && event.pid !== null) pids.add(event.pid);
    const terminal = await next.result;
    expect(terminal.outcome).toBe("completed");

    ledger.expectNoneSurvive();
    // the old entry is gone, and the new session removed its own
    expect(await readdir(registryDir)).toEqual([]);
  });
});
