#!/usr/bin/env node
// One `runStreamed()` session against the flood peer (scripts/bench/flood-peer.js, RENNET_BENCH_DELTAS deltas),
// read by a consumer that is `slow` (one event per 10 ms for SLOW_MS, then as fast as it can, so the run ends)
// or `fast` (as fast as it can throughout). Prints one JSON line: the peak RSS of this process
// (peak-rss.js), the largest RSS sampled during the slow phase, how many events the slow
// phase read, and the outcome. RENNET_STATE_DIR should be private.
// usage: node scripts/bench/slow-consumer-driver.js slow|fast PEER_EXECUTABLE [SLOW_MS]
import os from "node:os";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";
import { setTimeout as sleep } from "node:timers/promises";
import { createCodex } from "../../dist/index.js";
import { peakRssKiB } from "./peak-rss.js";

const MiB = 1024 * 1024;
const [mode, peer, slowArg] = process.argv.slice(2);
if ((mode !== "slow" && mode !== "fast") || !peer) {
  throw new Error("usage: slow-consumer-driver.js slow|fast PEER_EXECUTABLE [SLOW_MS]");
}
const slowMs = Number(slowArg ?? 3000);
const expected = Number(process.env.RENNET_BENCH_DELTAS ?? 100_000);

let sampledPeak = 0;
const sampler = setInterval(() => {
  sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
}, 20);

const start = performance.now();
const session = createCodex({ codex: peer }).runStreamed({ prompt: "flood", cwd: os.tmpdir() });
const events = session.events[Symbol.asyncIterator]();
let deltas = 0;
let slowEvents = 0;
let slowPeak = 0;
for (;;) {
  const slow = mode === "slow" && performance.now() - start < slowMs;
  const next = await events.next();
  if (next.done) break;
  if (next.value.type === "text.delta") deltas++;
  if (slow) {
    slowEvents++;
    slowPeak = Math.max(slowPeak, process.memoryUsage.rss());
    await sleep(10);
  }
}
const terminal = await session.result;
clearInterval(sampler);
if (terminal.outcome !== "completed" || deltas !== expected) {
  throw new Error(`the flood ended ${terminal.outcome} with ${deltas} of ${expected} deltas`);
}
process.stdout.write(
  `${JSON.stringify({
    mode,
    ms: performance.now() - start,
    deltas,
    slowEvents,
    slowPeakRssMiB: slowPeak / MiB,
    sampledPeakRssMiB: sampledPeak / MiB,
    maxRssMiB: peakRssKiB() / 1024,
  })}\n`,
);
