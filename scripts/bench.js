#!/usr/bin/env node
// `npm run bench` (= build + `node scripts/bench.js [--json] [--iterations N] [--silent-iterations N]
// [--real-iterations N]`): time from `abort()` to the terminal event (and to `result`, when the process tree is
// gone) for an app-server that answers turn/interrupt at once, for one that stays silent (the runner waits the
// interrupt grace, then kills), and for the real codex with a loopback model mid-command. Baselines measured in
// the same run: a bare `node -e ""` spawn+exit and a completed turn with the same fake. Iterations are bounded.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  abortAnsweringFake,
  abortSilentFake,
  fakeCompletedTurn,
  nodeSpawnExit,
  realCodexBench,
} from "./bench/measurements.js";
import { renderTable } from "./bench/render-table.js";
import { ratio, summarize } from "./bench/stats.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FAKE_BIN = path.join(ROOT, "dist", "testkit", "fake-app-server-bin.js");
const CODEX_BIN = path.join(
  ROOT,
  "node_modules",
  ".bin",
  process.platform === "win32" ? "codex.cmd" : "codex",
);
const MAX_ITERATIONS = 100;
const INTERRUPT_GRACE_MS = 2000;

function parseArgs(argv) {
  const options = { json: false, iterations: 15, silentIterations: 5, realIterations: 3 };
  const count = (flag, value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > MAX_ITERATIONS) {
      throw new Error(`${flag} needs an integer from 0 to ${MAX_ITERATIONS}, got ${JSON.stringify(value)}`);
    }
    return n;
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === "--json") options.json = true;
    else if (arg === "--iterations") options.iterations = count(arg, argv[++index]);
    else if (arg === "--silent-iterations") options.silentIterations = count(arg, argv[++index]);
    else if (arg === "--real-iterations") options.realIterations = count(arg, argv[++index]);
    else if (arg === "--help" || arg === "-h") {
      process.stdout.write(
        "usage: node scripts/bench.js [--json] [--iterations N] [--silent-iterations N] [--real-iterations N]\n",
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}; see --help`);
  }
  return options;
}

async function repeat(n, measure, progress) {
  const samples = [];
  for (let index = 0; index < n; index++) {
    samples.push(await measure());
    progress();
  }
  return samples;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(FAKE_BIN))
    throw new Error(`${FAKE_BIN} is missing: run \`npm run build\` first (npm run bench does)`);
  // keep the benchmark's spawn registry private (and out of the user's temp dir)
  const stateDir = await mkdtemp(path.join(os.tmpdir(), "rennet-bench-state-"));
  process.env.RENNET_STATE_DIR = stateDir;
  const progress = options.json ? () => {} : () => process.stderr.write(".");
  const started = Date.now();
  try {
    const spawnSamples = await repeat(options.iterations, nodeSpawnExit, progress);
    const fakeTurnSamples = await repeat(options.iterations, () => fakeCompletedTurn(FAKE_BIN), progress);
    const answering = await repeat(options.iterations, () => abortAnsweringFake(FAKE_BIN), progress);
    const silent = await repeat(
      options.silentIterations,
      () => abortSilentFake(FAKE_BIN, INTERRUPT_GRACE_MS),
      progress,
    );
    let real = [];
    let realSkipped = null;
    if (options.realIterations > 0 && existsSync(CODEX_BIN)) {
      const bench = await realCodexBench(CODEX_BIN);
      try {
        real = await repeat(options.realIterations, bench.measure, progress);
      } finally {
        await bench.cleanup();
      }
    } else realSkipped = options.realIterations === 0 ? "--real-iterations 0" : `${CODEX_BIN} not found`;
    if (!options.json) process.stderr.write("\n");

    const spawnBase = summarize(spawnSamples);
    const turnBase = summarize(fakeTurnSamples);
    const row = (label, key, samples) => {
      const summary = summarize(samples);
      return {
        key,
        label,
        ...summary,
        vsSpawn: ratio(summary.median, spawnBase.median),
        vsFakeTurn: ratio(summary.median, turnBase.median),
        samples,
      };
    };
    const rows = [
      row("baseline: node -e '' spawn+exit", "baseline.nodeSpawnExit", spawnSamples),
      row(
        "baseline: fake completed turn (runStreamed→terminal)",
        "baseline.fakeCompletedTurn",
        fakeTurnSamples,
      ),
      row(
        "(a) answering fake: abort→terminal",
        "answering.toTerminal",
        answering.map((s) => s.toTerminal),
      ),
      row(
        "(a) answering fake: abort→result (tree gone)",
        "answering.toResult",
        answering.map((s) => s.toResult),
      ),
      row(
        `(b) silent fake (grace ${INTERRUPT_GRACE_MS} ms): abort→terminal`,
        "silent.toTerminal",
        silent.map((s) => s.toTerminal),
      ),
      row(
        "(b) silent fake: abort→result (tree gone)",
        "silent.toResult",
        silent.map((s) => s.toResult),
      ),
    ];
    if (real.length > 0) {
      rows.push(
        row(
          "(c) real codex mid-command: abort→terminal",
          "realCodex.toTerminal",
          real.map((s) => s.toTerminal),
        ),
      );
      rows.push(
        row(
          "(c) real codex: abort→result (tree gone)",
          "realCodex.toResult",
          real.map((s) => s.toResult),
        ),
      );
    }
    const environment = {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: os.cpus().length,
      loadavg: os.loadavg().map((value) => Number(value.toFixed(2))),
      durationMs: Date.now() - started,
      realCodexSkipped: realSkipped,
    };
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ environment, rows }, null, 2)}\n`);
    } else {
      process.stdout.write(`${renderTable(rows)}\n\n`);
      process.stdout.write(
        `node ${environment.node} · ${environment.platform} · ${environment.cpus} CPUs · load ${environment.loadavg.join(" ")}` +
          ` · ${(environment.durationMs / 1000).toFixed(1)} s${realSkipped ? ` · real codex skipped (${realSkipped})` : ""}\n`,
      );
    }
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
