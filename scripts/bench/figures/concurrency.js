// 8 concurrent `rennet codex run --json` sessions against 8 concurrent raw clients, on 2 cores (on a machine with
// more, every process is pinned to CPUs 0 and 1 with taskset): the wall time of the batch, from the first spawn
// to the last exit. After every batch, no process that the batch started may still be running.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { figure, goal } from "../figure.js";
import { killPids, MARKER_VARIABLE, pidsWithMarker } from "../leftovers.js";
import { startRealTurnEnv, TURN_PROMPT } from "../real-turn-env.js";
import { lastJsonLine, timedRunOk } from "../timed-run.js";
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
  const leftovers = { rennet: 0, raw: 0 };
  try {
    const batch = (name, args, check) => async () => {
      const nonce = randomBytes(6).toString("hex");
      const env = { ...real.env, [MARKER_VARIABLE]: nonce };
      const command = pin ? "taskset" : process.execPath;
      const argv = pin ? ["-c", "0,1", process.execPath, ...args] : args;
      const start = performance.now();
      const runs = await Promise.allSettled(
        Array.from({ length: SESSIONS }, () =>
          timedRunOk({ command, args: argv, env, cwd: real.cwd, scratchDir: ctx.scratchDir }),
        ),
      );
      const ms = performance.now() - start;
      const left = pidsWithMarker(nonce) ?? [];
      leftovers[name] += left.length;
      killPids(left);
      const failed = runs.find((result) => result.status === "rejected");
      if (failed) throw failed.reason;
      for (const result of runs) check(result.value);
      return ms;
    };
    const checkRennet = (run) => {
      if (lastJsonLine(run.stdout)?.outcome !== "completed")
        throw new Error("a rennet session did not complete");
    };
    const samples = await ctx.interleave(ctx.rounds(3, 1), {
      rennet: batch("rennet", rennetRunArgs(ctx.root, TURN_PROMPT, ctx.codexBin), checkRennet),
      raw: batch("raw", rawClientArgs(ctx.root, ctx.codexBin, TURN_PROMPT), () => {}),
    });
    const scanned = process.platform === "linux";
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
      figure({
        key: "concurrency.leftovers",
        label: "processes still running after the rennet batches",
        unit: "count",
        samples: [scanned ? leftovers.rennet : Number.NaN],
        baselineLabel: "after the raw batches",
        baselineSamples: [scanned ? leftovers.raw : Number.NaN],
        goal: goal("absolute", 0),
        notes: scanned ? null : "not checked: needs /proc",
      }),
    ];
  } finally {
    await real.cleanup();
  }
}
