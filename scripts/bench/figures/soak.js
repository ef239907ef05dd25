// Long runs in one process: 500 sequential and then 50 concurrent library sessions (createCodex().runStreamed,
// default launcher, the executable fake app-server as a real child each, one shared AbortSignal) in a separate
// node process (scripts/bench/soak-driver.js, --expose-gc). What they leave behind is compared with what was
// there after a warm-up in the same process: memory after GC (RSS outside the JS heap, heap used), file
// descriptors, active handles, listeners, spawn-registry entries and process warnings; and whether a session
// costs more late in the run than early.
import path from "node:path";
import { figure, goal } from "../figure.js";
import { timedRunOk } from "../timed-run.js";

const SEQUENTIAL = 500;
const CONCURRENT = 50;
/** Sessions compared at each end of the sequential run. */
const WINDOW = 100;

/**
 * RSS minus the resident part of V8's heap: what native allocations (pipes, buffers, handles, code) hold. Not
 * minus the reserved heap: V8 reserves pages it has not touched yet (a grown young generation, a heap not yet
 * shrunk after start-up), which are not in RSS, so subtracting them reads a larger heap as less native memory.
 */
const outsideHeap = (snapshot) => snapshot.rssMiB - snapshot.heapPhysicalMiB;
const series = (values) => values.map((value) => value.toFixed(1)).join(" → ");

export async function soakSessions(ctx) {
  const driver = path.join(ctx.root, "scripts", "bench", "soak-driver.js");
  const run = await timedRunOk({
    command: process.execPath,
    args: ["--expose-gc", driver, String(SEQUENTIAL), String(CONCURRENT)],
    env: { ...process.env, RENNET_STATE_DIR: await ctx.tempDir("soak-state") },
    cwd: ctx.root,
    scratchDir: ctx.scratchDir,
    timeoutMs: 900_000,
  });
  ctx.progress();
  const report = JSON.parse(run.stdout.toString("utf8"));
  const { start, afterSequential: sequential, end } = report;
  const runs = report.sequentialRuns;
  const first = runs.slice(0, WINDOW);
  const last = runs.slice(-WINDOW);
  const perConcurrent = report.batchMs / CONCURRENT;
  const leftover = (key, label, unit, value, baseline) =>
    figure({
      key,
      label,
      unit,
      samples: [value],
      baselineLabel: "after the warm-up",
      baselineSamples: [baseline],
      goal: goal("delta", 0),
    });
  return [
    figure({
      key: "soak.nativeRss",
      label: `RSS outside the JS heap after ${SEQUENTIAL} sequential sessions`,
      unit: "MiB",
      samples: [outsideHeap(sequential)],
      baselineLabel: "the same after the warm-up",
      baselineSamples: [outsideHeap(start)],
      goal: goal("ratio", 1.1),
      notes:
        `RSS − V8's resident heap; every ${WINDOW} sessions (the first after 10 warm-up sessions): ` +
        `RSS ${series(report.rssSeries)}; heap reserved ${series(report.heapTotalSeries)}; ` +
        `heap resident ${series(report.heapPhysicalSeries)}; ` +
        `heap used ${series(report.heapSeries)} MiB`,
      extra: {
        rssSeriesMiB: report.rssSeries,
        heapUsedSeriesMiB: report.heapSeries,
        heapTotalSeriesMiB: report.heapTotalSeries,
        heapPhysicalSeriesMiB: report.heapPhysicalSeries,
        start,
        afterSequential: sequential,
        end,
      },
    }),
    figure({
      key: "soak.rss",
      label: `RSS after ${SEQUENTIAL} sequential sessions (after GC)`,
      unit: "MiB",
      samples: [sequential.rssMiB],
      baselineLabel: "after the warm-up",
      baselineSamples: [start.rssMiB],
      notes: "grows in steps as V8 reserves more heap (see soak.nativeRss); no goal",
    }),
    figure({
      key: "soak.heap",
      label: `JS heap used after ${SEQUENTIAL} + ${CONCURRENT} sessions (after GC)`,
      unit: "MiB",
      samples: [end.heapUsedMiB],
      baselineLabel: "after the warm-up",
      baselineSamples: [start.heapUsedMiB],
      goal: goal("delta", 1),
    }),
    figure({
      key: "soak.rssConcurrent",
      label: `RSS after ${CONCURRENT} concurrent sessions (after GC)`,
      unit: "MiB",
      samples: [end.rssMiB],
      baselineLabel: `RSS after the ${SEQUENTIAL} sequential ones`,
      baselineSamples: [sequential.rssMiB],
      notes: "the peak of 50 children at once is not handed back to the OS; the JS heap is",
    }),
    leftover("soak.fds", "open file descriptors after all sessions", "count", end.fds, start.fds),
    leftover(
      "soak.handles",
      "active handles and requests after all sessions",
      "count",
      end.handles,
      start.handles,
    ),
    leftover(
      "soak.listeners",
      "process + shared-signal listeners after all sessions",
      "count",
      end.listeners,
      start.listeners,
    ),
    figure({
      key: "soak.registry",
      label: "spawn-registry entries left",
      unit: "count",
      samples: [end.registryEntries],
      goal: goal("absolute", 0),
    }),
    figure({
      key: "soak.warnings",
      label: "process warnings (MaxListenersExceededWarning, …)",
      unit: "count",
      samples: [report.warnings.length],
      goal: goal("absolute", 0),
      notes: report.warnings.length > 0 ? report.warnings.join(" | ") : null,
      extra: { peakAbortListeners: report.peakAbortListeners },
    }),
    figure({
      key: "soak.sessionMs",
      label: `wall time per session, last ${WINDOW} of ${SEQUENTIAL}`,
      unit: "ms",
      samples: last.map((r) => r.ms),
      baselineLabel: `first ${WINDOW} sessions`,
      baselineSamples: first.map((r) => r.ms),
      goal: goal("ratio", 1.2),
    }),
    figure({
      key: "soak.sessionCpuMs",
      label: `CPU time of the process per session, last ${WINDOW} of ${SEQUENTIAL}`,
      unit: "ms",
      samples: last.map((r) => r.cpuMs),
      baselineLabel: `first ${WINDOW} sessions`,
      baselineSamples: first.map((r) => r.cpuMs),
      goal: goal("ratio", 1.2),
    }),
    figure({
      key: "soak.concurrentMs",
      label: `${CONCURRENT} concurrent sessions: batch wall time per session`,
      unit: "ms",
      samples: [perConcurrent],
      baselineLabel: "median sequential session",
      baselineSamples: runs.map((r) => r.ms),
      extra: { batchMs: report.batchMs },
    }),
  ];
}
