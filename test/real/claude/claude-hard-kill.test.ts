/**
 * The real claude when the Rennet process that started it dies hard (SIGKILL) mid-turn: its spawn registry
 * entry stays, and the next session started with the same RENNET_STATE_DIR reaps whatever of the old tree still
 * runs (claude itself, its Bash command, a setsid grandchild) before spawning its own claude.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { TEST_CLAUDE_BIN } from "../../helpers/claude-bin.js";
import { HardKillScene } from "../../helpers/hard-killed-stand-in.js";
import { ProcessLedger } from "../../helpers/process-ledger.js";
import { tempDir } from "../../helpers/temp.js";
import { waitFor } from "../../helpers/wait.js";
import { ClaudeSetups, claudeUnderTest, processesWith } from "./claude-helpers.js";

const setups = new ClaudeSetups();
claudeUnderTest();
const ledger = new ProcessLedger();
const scene = new HardKillScene(ledger);
afterEach(async () => {
  scene.end();
  await setups.dispose();
});

describe.runIf(process.platform === "linux")("real claude: Rennet killed hard mid-turn", () => {
  it("the next session start reaps what survived of the old tree (claude, its command, a setsid grandchild)", async () => {
    const marker = `${5000 + Math.floor(Math.random() * 900)}`;
    const s = await setups.create(
      scenarios.bash(`echo started; setsid sleep ${marker}1 & sleep ${marker}2`, { then: "never" }),
    );
    const stateDir = await tempDir("claude-hard-kill-state");
    const registryDir = path.join(stateDir, "spawned");

    // 1. a separate Rennet process runs the turn with the public client's defaults, up to the running command
    const child = scene.start("claude", TEST_CLAUDE_BIN, s.cwd, {
      ...s.home.env(),
      RENNET_STATE_DIR: stateDir,
    });
    const started = await child.next("session.started");
    const claudePid = started.pid;
    if (typeof claudePid !== "number")
      throw new Error(`session.started has no pid: ${JSON.stringify(started)}`);
    ledger.pids.add(claudePid);
    await child.next("tool.started");
    await waitFor(
      () => (processesWith(`sleep ${marker}1`).length > 0 ? true : undefined),
      "the command's setsid grandchild",
    );
    expect(await readdir(registryDir)).toHaveLength(1);

    // 2. Rennet dies hard: nothing of it ends the tree, so the grandchild (a session of its own) outlives it
    child.child.kill("SIGKILL");
    await child.exited;
    expect(processesWith(`sleep ${marker}1`)).not.toEqual([]);
    expect(await readdir(registryDir)).toHaveLength(1);

    // 3. a new session with the same state dir reaps it before spawning its own claude
    scene.useStateDir(stateDir);
    s.model.setScenario(scenarios.text("fresh turn"));
    const next = s.claude.runStreamed({ prompt: "hello", cwd: s.cwd, env: s.callEnv });
    for await (const event of next.events)
      if (event.type === "session.started" && event.pid !== null) ledger.pids.add(event.pid);
    const terminal = await next.result;
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");

    expect(processesWith(`sleep ${marker}`)).toEqual([]);
    ledger.expectNoneSurvive();
    // the old entry is gone, and the new session removed its own
    expect(await readdir(registryDir)).toEqual([]);
  });
});
