// 100k text deltas through `rennet codex run --json` against a raw line loop (the raw client) reading the same
// flood peer (scripts/bench/flood-peer.js), plus the peak RSS of the rennet process. Each round also runs both
// clients on a flood of 0 deltas, which splits the whole command into its fixed part (start-up, handshake,
// teardown) and the deltas' own part (the 100k run minus the 0-delta run beside it).
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { figure, goal } from "../figure.js";
import { cleanBaseEnv } from "../real-turn-env.js";
import { lastJsonLine, timedRunOk } from "../timed-run.js";
import { rawClientArgs, rennetRunArgs } from "./clients.js";

const DELTAS = 100_000;

/** An executable `codex` stand-in that runs the flood peer (for `--codex-bin` and the raw client alike). */
export async function floodPeerExecutable(ctx, dir) {
  const file = path.join(dir, "codex");
  const peer = path.join(ctx.root, "scripts", "bench", "flood-peer.js");
  await writeFile(file, `#!/bin/sh\nexec '${process.execPath}' '${peer}' "$@"\n`);
  await chmod(file, 0o755);
  return file;
}

function countNewlines(buffer) {
  let count = 0;
  for (let at = buffer.indexOf(0x0a); at >= 0; at = buffer.indexOf(0x0a, at + 1)) count++;
  return count;
}

export async function streamDeltas(ctx) {
  const dir = await ctx.tempDir("stream");
  const peer = await floodPeerExecutable(ctx, dir);
  const preload = pathToFileURL(path.join(ctx.root, "scripts", "bench", "max-rss-preload.js")).href;
  const rssFile = path.join(dir, "max-rss");
  const env = cleanBaseEnv({
    HOME: dir,
    RENNET_STATE_DIR: await ctx.tempDir("stream-state"),
    RENNET_BENCH_DELTAS: String(DELTAS),
    RENNET_BENCH_RSS_FILE: rssFile,
  });
  const rss = { rennet: [], raw: [] };
  /** One timed run of `args` on a flood of `deltas`; the full floods' peak RSS is recorded under `name`. */
  const measure = async (name, args, deltas, check) => {
    const run = await timedRunOk({
      command: process.execPath,
      args: ["--import", preload, ...args],
      env: { ...env, RENNET_BENCH_DELTAS: String(deltas) },
      cwd: dir,
      scratchDir: ctx.scratchDir,
    });
    check(run, deltas);
    if (deltas === DELTAS) rss[name].push(Number(await readFile(rssFile, "utf8")) / 1024);
    return run.ms;
  };
  const checkRennet = (run, deltas) => {
    const terminal = lastJsonLine(run.stdout);
    if (terminal?.outcome !== "completed" || countNewlines(run.stdout) < deltas) {
      throw new Error(`the flood did not come through rennet: ${JSON.stringify(terminal)}`);
    }
  };
  const rennet = (deltas) => measure("rennet", rennetRunArgs(ctx.root, "flood", peer), deltas, checkRennet);
  const raw = (deltas) => measure("raw", rawClientArgs(ctx.root, peer, "flood"), deltas, () => {});
  const samples = await ctx.interleave(ctx.rounds(7, 2), {
    rennet: () => rennet(DELTAS),
    raw: () => raw(DELTAS),
    rennetFixed: () => rennet(0),
    rawFixed: () => raw(0),
  });
  const minus = (whole, fixed) => whole.map((ms, round) => ms - (fixed[round] ?? Number.NaN));
  // the warm-up runs recorded an RSS each too; peak RSS is the largest of every run
  return [
    figure({
      key: "stream.deltas",
      label: `${DELTAS / 1000}k text deltas through rennet --json vs raw line loop`,
      unit: "ms",
      samples: samples.rennet,
      baselineLabel: "raw client, same peer",
      baselineSamples: samples.raw,
      goal: goal("ratio", 1.3),
    }),
    figure({
      key: "stream.fixed",
      label: "the same command on a flood of 0 deltas (start-up, handshake, teardown)",
      unit: "ms",
      samples: samples.rennetFixed,
      baselineLabel: "raw client, same peer",
      baselineSamples: samples.rawFixed,
    }),
    figure({
      key: "stream.perDelta",
      label: `the ${DELTAS / 1000}k deltas alone (each run minus the 0-delta run of its round)`,
      unit: "ms",
      samples: minus(samples.rennet, samples.rennetFixed),
      baselineLabel: "raw client, same peer",
      baselineSamples: minus(samples.raw, samples.rawFixed),
    }),
    figure({
      key: "stream.peakRss",
      label: "peak RSS of the rennet process during the flood",
      unit: "MiB",
      samples: [Math.max(...rss.rennet)],
      baselineLabel: "raw client peak RSS",
      baselineSamples: [Math.max(...rss.raw)],
      goal: goal("absolute", 100),
      extra: { rssSamplesMiB: rss },
    }),
  ];
}
