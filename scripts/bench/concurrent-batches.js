// Runs a batch of Rennet sessions at once against a batch of raw clients at once, interleaved, and counts what any
// batch left running: every process a batch starts carries RENNET_BENCH_RUN=<nonce>, and whatever still carries it
// after the batch is counted and killed.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { figure, goal } from "./figure.js";
import { killPids, MARKER_VARIABLE, pidsWithMarker } from "./leftovers.js";
import { lastJsonLine, timedRunOk } from "./timed-run.js";

/**
 * `sessions` copies of `node <rennetArgs>` (each must print a completed outcome as its last JSON line) against
 * `sessions` copies of `node <rawArgs>`, in `env` and `cwd`; with `pin`, every process runs under
 * `taskset -c 0,1`. Resolves with the batch wall times by side (`samples.rennet`, `samples.raw`) and the
 * processes each side left behind (`leftovers`, summed over its batches).
 */
export async function concurrentBatches(ctx, { sessions, env, cwd, rennetArgs, rawArgs, pin = false }) {
  const leftovers = { rennet: 0, raw: 0 };
  const batch = (name, args, check) => async () => {
    const nonce = randomBytes(6).toString("hex");
    const batchEnv = { ...env, [MARKER_VARIABLE]: nonce };
    const command = pin ? "taskset" : process.execPath;
    const argv = pin ? ["-c", "0,1", process.execPath, ...args] : args;
    const start = performance.now();
    const runs = await Promise.allSettled(
      Array.from({ length: sessions }, () =>
        timedRunOk({ command, args: argv, env: batchEnv, cwd, scratchDir: ctx.scratchDir }),
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
    rennet: batch("rennet", rennetArgs, checkRennet),
    raw: batch("raw", rawArgs, () => {}),
  });
  return { samples, leftovers };
}

/** The figure of the processes still running after the Rennet batches (goal 0), against the raw batches'. */
export function leftoversFigure(key, label, leftovers) {
  const scanned = process.platform === "linux";
  return figure({
    key,
    label,
    unit: "count",
    samples: [scanned ? leftovers.rennet : Number.NaN],
    baselineLabel: "after the raw batches",
    baselineSamples: [scanned ? leftovers.raw : Number.NaN],
    goal: goal("absolute", 0),
    notes: scanned ? null : "not checked: needs /proc",
  });
}
