// 100k text deltas through `rennet codex run --json` against a raw line loop (the raw client) reading the same
// flood peer (scripts/bench/flood-peer.js), plus the peak RSS of the rennet process.
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
  const measure = async (name, args, check) => {
    const run = await timedRunOk({
      command: process.execPath,
      args: ["--import", preload, ...args],
      env,
      cwd: dir,
      scratchDir: ctx.scratchDir,
    });
    check(run);
    rss[name].push(Number(await readFile(rssFile, "utf8")) / 1024);
    return run.ms;
  };
  const checkRennet = (run) => {
    const terminal = lastJsonLine(run.stdout);
    if (terminal?.outcome !== "completed" || countNewlines(run.stdout) < DELTAS) {
      throw new Error(`the flood did not come through rennet: ${JSON.stringify(terminal)}`);
    }
  };
  const samples = await ctx.interleave(ctx.rounds(7, 2), {
    rennet: () => measure("rennet", rennetRunArgs(ctx.root, "flood", peer), checkRennet),
    raw: () => measure("raw", rawClientArgs(ctx.root, peer, "flood"), () => {}),
  });
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
