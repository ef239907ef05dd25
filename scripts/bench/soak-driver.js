#!/usr/bin/env node
// Runs many library sessions in this one process and reports what they left behind, as one JSON line on stdout.
// Every session is `createCodex().runStreamed()` with the default launcher against the executable fake
// app-server (`dist/testkit/fake-app-server-bin.js`, a real child each), read to its end, all with one shared
// AbortSignal (as an application passes its shutdown signal to every call). RENNET_STATE_DIR must be private:
// the spawn registry directory under it is counted at the end.
// usage: node --expose-gc scripts/bench/soak-driver.js SEQUENTIAL CONCURRENT [WARMUP]
/* global AbortController */
import { getEventListeners } from "node:events";
import { existsSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { createCodex } from "../../dist/index.js";
import { fakeSteps } from "../../dist/testkit/fake-script.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const FAKE_BIN = path.join(ROOT, "dist", "testkit", "fake-app-server-bin.js");
const PROCESS_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP", "exit", "beforeExit", "uncaughtException", "warning"];
const MiB = 1024 * 1024;

const [sequential, concurrent, warmup] = process.argv.slice(2).map(Number);
if (!Number.isInteger(sequential) || !Number.isInteger(concurrent)) {
  throw new Error("usage: soak-driver.js SEQUENTIAL CONCURRENT [WARMUP]");
}
const stateDir = process.env.RENNET_STATE_DIR;
if (!stateDir) throw new Error("set RENNET_STATE_DIR to a private directory");
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");

const warnings = [];
process.on("warning", (warning) => warnings.push(`${warning.name}: ${warning.message}`));

const codex = createCodex({
  codex: {
    launch: { type: "node-launcher", node: process.execPath, script: FAKE_BIN },
    path: FAKE_BIN,
    version: null,
    source: "explicit",
  },
  env: { ...process.env, RENNET_FAKE_SCRIPT_JSON: JSON.stringify({ turn: fakeSteps.textTurn("soak") }) },
});
const shutdown = new AbortController();

/** One session read to its end: `{ms, cpuMs}` (wall time, and this process's CPU time: user + system). */
async function session() {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const running = codex.runStreamed({ prompt: "soak", cwd: os.tmpdir(), signal: shutdown.signal });
  let terminals = 0;
  for await (const event of running.events) if (event.type === "terminal") terminals++;
  const terminal = await running.result;
  if (terminal.outcome !== "completed" || terminals !== 1) {
    throw new Error(`a soak session ended ${terminal.outcome} with ${terminals} terminal events`);
  }
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

/** What a leak would leave behind, after the event loop had a moment to close what finished sessions released. */
async function snapshot() {
  await sleep(300);
  globalThis.gc();
  globalThis.gc();
  const memory = process.memoryUsage();
  const registry = path.join(stateDir, "spawned");
  return {
    rssMiB: memory.rss / MiB,
    heapUsedMiB: memory.heapUsed / MiB,
    heapTotalMiB: memory.heapTotal / MiB,
    // the part of the reserved heap that is resident: pages V8 committed but never touched are not in RSS
    heapPhysicalMiB: v8.getHeapStatistics().total_physical_size / MiB,
    externalMiB: memory.external / MiB,
    fds: existsSync("/proc/self/fd") ? readdirSync("/proc/self/fd").length : null,
    handles: process.getActiveResourcesInfo().length,
    listeners:
      getEventListeners(shutdown.signal, "abort").length +
      PROCESS_EVENTS.reduce((sum, event) => sum + process.listenerCount(event), 0),
    registryEntries: existsSync(registry) ? readdirSync(registry).length : 0,
  };
}

for (let i = 0; i < (Number.isInteger(warmup) ? warmup : 10); i++) await session();
const start = await snapshot();
const sequentialRuns = [];
/**
 * RSS, heap used, heap reserved and its resident part (after GC) every 100 sequential sessions: a leak shows as a
 * slope of the heap used, a warm-up as a step; V8 keeping more heap reserved shows in RSS and heap total alone.
 */
const rssSeries = [start.rssMiB];
const heapSeries = [start.heapUsedMiB];
const heapTotalSeries = [start.heapTotalMiB];
const heapPhysicalSeries = [start.heapPhysicalMiB];
for (let i = 1; i <= sequential; i++) {
  sequentialRuns.push(await session());
  if (i % 100 === 0 && i < sequential) {
    const at = await snapshot();
    rssSeries.push(at.rssMiB);
    heapSeries.push(at.heapUsedMiB);
    heapTotalSeries.push(at.heapTotalMiB);
    heapPhysicalSeries.push(at.heapPhysicalMiB);
  }
}
const afterSequential = await snapshot();
rssSeries.push(afterSequential.rssMiB);
heapSeries.push(afterSequential.heapUsedMiB);
heapTotalSeries.push(afterSequential.heapTotalMiB);
heapPhysicalSeries.push(afterSequential.heapPhysicalMiB);
const batchStart = performance.now();
const batch = Array.from({ length: concurrent }, () => session());
const peakAbortListeners = getEventListeners(shutdown.signal, "abort").length;
const concurrentRuns = await Promise.all(batch);
const batchMs = performance.now() - batchStart;
const end = await snapshot();
process.stdout.write(
  `${JSON.stringify({ sequential, concurrent, start, afterSequential, end, rssSeries, heapSeries, heapTotalSeries, heapPhysicalSeries, sequentialRuns, concurrentRuns, batchMs, peakAbortListeners, warnings })}\n`,
);
