#!/usr/bin/env node
// `npm run bench` (= build + `node scripts/bench.js`). Every figure is a median over several runs, compared
// with a baseline measured in the same run, interleaved with it (A B A B …, after one unmeasured warm-up
// each); whole processes are timed with performance.now() from spawn() to exit. See docs/performance.md.
// Exit code 1 when a figure could not be measured; goals that are not met are reported, not failed.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { failedFigure, interleave } from "./bench/figure.js";
import { abortLatency } from "./bench/figures/abort.js";
import { claudeTurns } from "./bench/figures/claude.js";
import { turnOnBusyMachine } from "./bench/figures/busy-machine.js";
import { concurrentSessions } from "./bench/figures/concurrency.js";
import { discoveryWithSlowShell } from "./bench/figures/discovery.js";
import { slowConsumer } from "./bench/figures/slow-consumer.js";
import { soakSessions } from "./bench/figures/soak.js";
import { consumerInstall } from "./bench/figures/install.js";
import { helpStartup, importStartup } from "./bench/figures/startup.js";
import { sessionsInProcess } from "./bench/figures/sessions.js";
import { streamDeltas } from "./bench/figures/stream.js";
import { turnVersusCodexSdk, turnVersusRawClient } from "./bench/figures/turn.js";
import { pinnedCodex } from "./bench/real-turn-env.js";
import { renderTable } from "./bench/render-table.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MAX_COUNT = 100;

/** The figure groups, in report order. `codex: true` groups need the codex executable. */
const GROUPS = [
  { name: "turn-raw", codex: true, run: turnVersusRawClient, about: "real turn vs minimal raw client" },
  { name: "turn-sdk", codex: true, run: turnVersusCodexSdk, about: "real turn vs @openai/codex-sdk" },
  {
    name: "sessions",
    codex: true,
    run: sessionsInProcess,
    about: "turns inside a running app: library vs SDK, raw",
  },
  {
    name: "busy",
    codex: true,
    run: turnOnBusyMachine,
    about: "real turn with 600 more processes running vs raw client",
  },
  { name: "help", run: helpStartup, about: "rennet --help over node -e 0" },
  { name: "import", run: importStartup, about: "import of dist/index.js over node -e 0" },
  { name: "stream", run: streamDeltas, about: "100k deltas vs raw line loop; peak RSS" },
  { name: "discovery", codex: true, run: discoveryWithSlowShell, about: "warm discovery, slow login shell" },
  { name: "install", run: consumerInstall, about: "consumer install: packages and MB" },
  { name: "concurrency", codex: true, run: concurrentSessions, about: "8 sessions on 2 cores vs 8 raw" },
  { name: "abort", run: abortLatency, about: "abort→terminal / →tree gone (library)" },
  { name: "soak", run: soakSessions, about: "500 sequential + 50 concurrent library sessions: leftovers" },
  { name: "slow-consumer", run: slowConsumer, about: "slow runStreamed consumer in a 100k flood; peak RSS" },
  {
    name: "claude",
    run: claudeTurns,
    about: "Claude Code turn vs raw stream-json client and Agent SDK; 8 concurrent; leftovers",
  },
];

const USAGE = `usage: node scripts/bench.js [--json] [--quick] [--only NAME,…] [--rounds N]
                          [--iterations N] [--silent-iterations N] [--real-iterations N]
  --json               one JSON document on stdout instead of the table
  --quick              fewer rounds (a smoke run; the figures are noisier)
  --only NAME,…        run only these groups: ${GROUPS.map((group) => group.name).join(", ")}
  --rounds N           interleaved rounds for every group except abort and soak (default per group)
  --iterations N       abort: runs of the answering fake and of the baselines (default 15, quick 5)
  --silent-iterations N  abort: runs of the silent fake (default 5, quick 2)
  --real-iterations N  abort: runs of the real codex mid-command (default 3, quick 1)
codex: $RENNET_TEST_CODEX, else node_modules/.bin/codex. claude: $RENNET_TEST_CLAUDE, else the pinned
@anthropic-ai/claude-code. The claude group installs @anthropic-ai/claude-agent-sdk on first use into
$RENNET_BENCH_CACHE (default ~/.cache/rennet-bench), without its bundled claude, and skips the SDK rows offline.
`;

function parseArgs(argv) {
  const options = { json: false, quick: false, only: null, rounds: null, abort: {} };
  const count = (flag, value, min = 0) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > MAX_COUNT) {
      throw new Error(`${flag} needs an integer from ${min} to ${MAX_COUNT}, got ${JSON.stringify(value)}`);
    }
    return n;
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === "--json") options.json = true;
    else if (arg === "--quick") options.quick = true;
    else if (arg === "--only") {
      const names = String(argv[++index] ?? "")
        .split(",")
        .filter(Boolean);
      const unknown = names.filter((name) => !GROUPS.some((group) => group.name === name));
      if (names.length === 0 || unknown.length > 0) {
        throw new Error(`--only: unknown group ${unknown.join(", ") || "(none)"}; see --help`);
      }
      options.only = names;
    } else if (arg === "--rounds") options.rounds = count(arg, argv[++index], 1);
    else if (arg === "--iterations") options.abort.fake = count(arg, argv[++index]);
    else if (arg === "--silent-iterations") options.abort.silent = count(arg, argv[++index]);
    else if (arg === "--real-iterations") options.abort.real = count(arg, argv[++index]);
    else if (arg === "--help" || arg === "-h") {
      process.stdout.write(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}; see --help`);
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(path.join(ROOT, "dist", "index.js"))) {
    throw new Error("dist/ is missing: run `npm run build` first (npm run bench does)");
  }
  const codexBin = pinnedCodex(ROOT);
  const made = [];
  const tempDir = async (name) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `rennet-bench-${name}-`));
    made.push(dir);
    return dir;
  };
  // the library figures (abort) keep their spawn registry private, too
  process.env.RENNET_STATE_DIR = await tempDir("state");
  const progress = options.json ? () => {} : () => process.stderr.write(".");
  const ctx = {
    root: ROOT,
    codexBin,
    quick: options.quick,
    scratchDir: await tempDir("scratch"),
    tempDir,
    progress,
    rounds: (full, quick) => options.rounds ?? (options.quick ? quick : full),
    interleave: (rounds, variants) => interleave(rounds, variants, progress),
    abortCounts: {
      fake: options.abort.fake ?? (options.quick ? 5 : 15),
      silent: options.abort.silent ?? (options.quick ? 2 : 5),
      real: options.abort.real ?? (options.quick ? 1 : 3),
    },
  };
  const started = Date.now();
  const figures = [];
  try {
    for (const group of GROUPS) {
      if (options.only && !options.only.includes(group.name)) continue;
      if (!options.json) process.stderr.write(`${group.name} `);
      try {
        if (group.codex && !codexBin) throw new Error("no codex: set RENNET_TEST_CODEX or npm install");
        figures.push(...(await group.run(ctx)));
      } catch (error) {
        figures.push(failedFigure(group.name, group.about, error));
      }
      if (!options.json) process.stderr.write("\n");
    }
  } finally {
    for (const dir of made) await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
  const environment = {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: os.cpus().length,
    loadavg: os.loadavg().map((value) => Number(value.toFixed(2))),
    codex: codexBin,
    quick: options.quick,
    durationMs: Date.now() - started,
    date: new Date().toISOString(),
  };
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ environment, figures }, null, 2)}\n`);
  } else {
    process.stdout.write(`${renderTable(figures)}\n\n`);
    process.stdout.write(
      `node ${environment.node} · ${environment.platform} · ${environment.cpus} CPUs · load ${environment.loadavg.join(" ")}` +
        ` · ${(environment.durationMs / 1000).toFixed(1)} s · codex ${codexBin ?? "(none)"}\n`,
    );
  }
  if (figures.some((figure) => figure.error)) process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
