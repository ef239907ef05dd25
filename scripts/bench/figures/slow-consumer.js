// A slow consumer of `runStreamed()` during a 100k-delta flood (scripts/bench/flood-peer.js): it reads one event
// per 10 ms for 3 s, then the rest as fast as it can; the baseline is the same flood read fast throughout. Each
// run is its own node process (scripts/bench/slow-consumer-driver.js), slow and fast interleaved.
import path from "node:path";
import { figure, goal } from "../figure.js";
import { timedRunOk } from "../timed-run.js";
import { floodPeerExecutable } from "./stream.js";

const DELTAS = 100_000;
const SLOW_MS = 3000;

export async function slowConsumer(ctx) {
  const dir = await ctx.tempDir("slow-consumer");
  const peer = await floodPeerExecutable(ctx, dir);
  const driver = path.join(ctx.root, "scripts", "bench", "slow-consumer-driver.js");
  const env = {
    ...process.env,
    RENNET_STATE_DIR: await ctx.tempDir("slow-consumer-state"),
    RENNET_BENCH_DELTAS: String(DELTAS),
  };
  const reports = { slow: [], fast: [] };
  const measure = async (mode) => {
    const run = await timedRunOk({
      command: process.execPath,
      args: [driver, mode, peer, String(SLOW_MS)],
      env,
      cwd: dir,
      scratchDir: ctx.scratchDir,
    });
    const report = JSON.parse(run.stdout.toString("utf8"));
    reports[mode].push(report);
    return report;
  };
  await ctx.interleave(ctx.rounds(3, 1), { slow: () => measure("slow"), fast: () => measure("fast") });
  // the warm-up runs are measured too: peak RSS is the largest of every run
  const fastPeak = Math.max(...reports.fast.map((r) => r.maxRssMiB));
  const slowEvents = reports.slow.map((r) => r.slowEvents);
  return [
    figure({
      key: "slowConsumer.peakRss",
      label: `peak RSS while reading one event per 10 ms (${SLOW_MS / 1000} s of a ${DELTAS / 1000}k-delta flood)`,
      unit: "MiB",
      samples: [Math.max(...reports.slow.map((r) => r.slowPeakRssMiB))],
      baselineLabel: "peak RSS of the same flood read fast",
      baselineSamples: [fastPeak],
      goal: goal("ratio", 1),
      notes: `the slow phase read ${Math.min(...slowEvents)}–${Math.max(...slowEvents)} events; reading stops at 1024 unread events and resumes at 256`,
      extra: { reports },
    }),
    figure({
      key: "slowConsumer.wholeRunPeakRss",
      label: "peak RSS of the slow run, its fast catch-up included",
      unit: "MiB",
      samples: [Math.max(...reports.slow.map((r) => r.maxRssMiB))],
      baselineLabel: "peak RSS of the same flood read fast",
      baselineSamples: [fastPeak],
      goal: goal("ratio", 1.1),
    }),
  ];
}
