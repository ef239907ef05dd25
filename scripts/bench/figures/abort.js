// Abort latency through the library (createCodex in this process): from abort() to the terminal event and to
// `result` (the process tree is gone), for a fake app-server that answers turn/interrupt at once (a), one that
// stays silent so the runner waits the interrupt grace and kills (b), and the real codex mid-command (c).
// Baseline: a completed turn with the same executable fake, interleaved with the abort runs; the JSON also
// carries the ratio to a bare `node -e ""` spawn+exit.
import path from "node:path";
import { figure } from "../figure.js";
import {
  abortAnsweringFake,
  abortSilentFake,
  fakeCompletedTurn,
  nodeSpawnExit,
  realCodexBench,
} from "../measurements.js";
import { quantile } from "../stats.js";

export const INTERRUPT_GRACE_MS = 2000;

export async function abortLatency(ctx) {
  const fakeBin = path.join(ctx.root, "dist", "testkit", "fake-app-server-bin.js");
  const counts = ctx.abortCounts;
  const real = counts.real > 0 && ctx.codexBin ? await realCodexBench(ctx.codexBin) : null;
  const variants = [
    ["spawn", counts.fake, nodeSpawnExit],
    ["fakeTurn", counts.fake, () => fakeCompletedTurn(fakeBin)],
    ["answering", counts.fake, () => abortAnsweringFake(fakeBin)],
    ["silent", counts.silent, () => abortSilentFake(fakeBin, INTERRUPT_GRACE_MS)],
    ["real", real ? counts.real : 0, () => real.measure()],
  ];
  const samples = Object.fromEntries(variants.map(([name]) => [name, []]));
  try {
    const rounds = Math.max(...variants.map(([, count]) => count));
    for (let round = 0; round < rounds; round++) {
      for (const [name, count, measure] of variants) {
        if (round >= count) continue;
        samples[name].push(await measure());
        ctx.progress();
      }
    }
  } finally {
    await real?.cleanup();
  }
  const spawnMedian = quantile(samples.spawn, 0.5);
  const row = (key, label, values) => {
    const result = figure({
      key,
      label,
      unit: "ms",
      samples: values,
      baselineLabel: "fake completed turn",
      baselineSamples: samples.fakeTurn,
    });
    return { ...result, vsNodeSpawn: result.value / spawnMedian, nodeSpawnMedian: spawnMedian };
  };
  /** Abort→terminal and abort→tree-gone of one scenario's `list`. */
  const rows = (scenario, terminalLabel, resultLabel, list) => [
    row(
      `abort.${scenario}.toTerminal`,
      terminalLabel,
      list.map((s) => s.toTerminal),
    ),
    row(
      `abort.${scenario}.toResult`,
      resultLabel,
      list.map((s) => s.toResult),
    ),
  ];
  const figures = rows(
    "answering",
    "(a) answering fake: abort→terminal",
    "(a) answering fake: abort→tree gone",
    samples.answering,
  );
  if (samples.silent.length > 0)
    figures.push(
      ...rows(
        "silent",
        `(b) silent fake (grace ${INTERRUPT_GRACE_MS} ms): abort→terminal`,
        "(b) silent fake: abort→tree gone",
        samples.silent,
      ),
    );
  if (samples.real.length > 0)
    figures.push(
      ...rows(
        "realCodex",
        "(c) real codex mid-command: abort→terminal",
        "(c) real codex: abort→tree gone",
        samples.real,
      ),
    );
  return figures;
}
