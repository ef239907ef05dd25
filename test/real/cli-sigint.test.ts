import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HarnessEvent } from "../../src/harness/events.js";
import { TEST_CODEX_BIN, REPO_ROOT } from "../helpers/codex-bin.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";
import { midCommandWithSetsidGrandchild, waitUntilRegistryLists } from "../fixtures/hygiene/hygiene-codex.js";
import { tempDir } from "../helpers/temp.js";
import { ProcessLedger } from "../helpers/process-ledger.js";
import { waitForPids, waitUntilSessionLeader } from "../helpers/processes.js";

// The CLI: `rennet codex run --json` against the real codex, interrupted by SIGINT mid-command, exits 130,
// ends its stdout with a `cancelled` terminal frame and leaves no process of the tree behind. Needs the build
// (`npm test` and `npm run build` make it; by hand: `npx tsc -p tsconfig.build.json`).

const BIN = path.join(REPO_ROOT, "bin", "rennet.js");
const BUILT_MAIN = path.join(REPO_ROOT, "dist", "cli", "main.js");

let fixture: RealCodexFixture | null = null;
let stateDir = "";
let cli: ChildProcess | null = null;
const ledger = new ProcessLedger();
const pids = ledger.pids;
afterEach(async () => {
  if (cli && cli.exitCode === null && cli.signalCode === null) cli.kill("SIGKILL");
  cli = null;
  ledger.killAll();
  await fixture?.dispose();
  fixture = null;
});

describe.runIf(process.platform === "linux")("rennet codex run (built CLI, real codex): SIGINT", () => {
  beforeAll(() => {
    if (!existsSync(BUILT_MAIN))
      throw new Error(
        `${BUILT_MAIN} is missing: run \`npx tsc -p tsconfig.build.json\` first (\`npm test\` does)`,
      );
  });

  it("SIGINT mid-command exits 130 with a cancelled terminal frame last, and no descendant survives", async () => {
    fixture = await startRealCodex(midCommandWithSetsidGrandchild());
    stateDir = await tempDir("cli-state");
    const env = ledger.markedEnv({ ...fixture.env, RENNET_STATE_DIR: stateDir });
    delete env.RENNET_CODEX_BIN;
    const child = spawn(
      process.execPath,
      [BIN, "codex", "run", "--json", "--codex-bin", TEST_CODEX_BIN, "run the long command"],
      {
        cwd: fixture.cwd,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    cli = child;
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exitCode = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    if (!child.stdout) throw new Error("no stdout");

    const lines: string[] = [];
    let interrupted = false;
    for await (const line of createInterface({ input: child.stdout })) {
      lines.push(line);
      const event = JSON.parse(line) as HarnessEvent;
      if (event.type === "session.started" && event.pid !== null) pids.add(event.pid);
      if (event.type === "tool.started" && !interrupted) {
        interrupted = true;
        const [commandPid] = await waitForPids(path.join(fixture.cwd, "command.pid"), 1);
        const [grandchild] = await waitForPids(path.join(fixture.cwd, "grandchild.pid"), 1);
        if (commandPid === undefined || grandchild === undefined)
          throw new Error("the command wrote no pids");
        pids.add(commandPid).add(grandchild);
        await waitUntilSessionLeader(grandchild);
        // see hygiene-cancel.test.ts: the grandchild is reached once the periodic walk has recorded it
        await waitUntilRegistryLists(path.join(stateDir, "spawned"), [commandPid, grandchild]);
        child.kill("SIGINT");
      }
    }

    expect(interrupted, `no tool.started line; stderr: ${stderr}`).toBe(true);
    expect(await exitCode).toBe(130);
    const last = JSON.parse(lines.at(-1) ?? "{}") as HarnessEvent;
    expect(last).toMatchObject({
      type: "terminal",
      outcome: "cancelled",
      cancellation: { reason: "received SIGINT" },
    });
    expect(lines.filter((line) => line.includes('"type":"terminal"'))).toHaveLength(1);
    expect(stderr).toContain("SIGINT: cancelling the turn");
    ledger.expectNoneSurvive();
  });
});
