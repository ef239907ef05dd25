// 8 concurrent `rennet codex run --json` sessions against 8 concurrent raw clients, on 2 cores (on a machine with
// more, every process is pinned to CPUs 0 and 1 with taskset): the wall time of the batch, from the first spawn
// to the last exit. After every batch, no process that the batch started may still be running.
import { execFileSync } from "node:child_process";
import os from "node:os";
import { figure, goal } from "../figure.js";
import { concurrentBatches, leftoversFigure } from "../concurrent-batches.js";
import { startRealTurnEnv, TURN_PROMPT } from "../real-turn-env.js";
import { rawClientArgs, rennetRunArgs } from "./clients.js";

const SESSIONS = 8;
const CORES = 2;

function hasTaskset() {
  try {
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export async function concurrentSessions(ctx) {
  const pin = os.cpus().length > CORES && process.platform === "linux" && hasTaskset();
  const real = await startRealTurnEnv();
  try {
    const { samples, leftovers } = await concurrentBatches(ctx, {
      sessions: SESSIONS,
      env: real.env,
      cwd: real.cwd,
      pin,
      rennetArgs: rennetRunArgs(ctx.root, TURN_PROMPT, ctx.codexBin),
      rawArgs: rawClientArgs(ctx.root, ctx.codexBin, TURN_PROMPT),
    });
    return [
      figure({
        key: "concurrency.batch8",
        label: `${SESSIONS} concurrent rennet sessions on ${CORES} cores vs ${SESSIONS} raw clients`,
        unit: "ms",
        samples: samples.rennet,
        baselineLabel: `${SESSIONS} concurrent raw clients`,
        baselineSamples: samples.raw,
        goal: goal("ratio", 1.25),
        notes: pin ? "pinned with taskset -c 0,1" : `${os.cpus().length} CPUs, not pinned`,
      }),
      leftoversFigure("concurrency.leftovers", "processes still running after the rennet batches", leftovers),
    ];
  } finally {
    await real.cleanup();
  }
}
