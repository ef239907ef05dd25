#!/usr/bin/env node
// Where the time of one `rennet codex run --json` goes, on the offline real turn of the benchmark.
// usage: npm run build && node scripts/bench/profile-turn.js [--runs N] [--phases-only]
// 1. import cost: `await import(X)` timed inside a fresh node, for the CLI, the entry and their dependencies;
// 2. phases of the turn (median of N runs) from the marks of scripts/bench/phase-hooks.js, for rennet and for
//    the raw client (scripts/bench/raw-client.js) on the same turn;
// 3. CPU profiles (`node --cpu-prof`): one turn by module, and 100k deltas from the flood peer by module and
//    by function.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { npmNativeBehind, rawClientArgs, rennetRunArgs } from "./figures/clients.js";
import { floodPeerExecutable } from "./figures/stream.js";
import { pinnedCodex, startRealTurnEnv, TURN_PROMPT } from "./real-turn-env.js";
import { quantile } from "./stats.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const run = promisify(execFile);
const runsAt = process.argv.indexOf("--runs");
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 5;
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs takes a whole number of at least 1");
const phasesOnly = process.argv.includes("--phases-only");
const median = (values) => quantile(values, 0.5);
const ms = (value) => (Number.isFinite(value) ? value.toFixed(1) : "–");

const IMPORTS = [
  "./dist/cli/main.js",
  "./dist/index.js",
  "./dist/codex/client/codex-client.js",
  "./dist/codex/turn/turn-runner.js",
  "./dist/codex/discovery/discover.js",
  "./dist/codex/mcp/mcp-isolation-check.js",
  "./dist/codex/schema/structured-output.js",
  "./dist/mcp/loopback-mcp-server.js",
  "./dist/process/stdio-launcher.js",
  "ajv",
  "smol-toml",
  "picocolors",
  "@modelcontextprotocol/sdk/server/index.js",
  "@modelcontextprotocol/sdk/server/streamableHttp.js",
];

async function importCosts() {
  const rows = [];
  for (const specifier of IMPORTS) {
    const target = specifier.startsWith("./") ? pathToFileURL(path.join(ROOT, specifier)).href : specifier;
    const code = `const t = performance.now(); await import(${JSON.stringify(target)}); console.log(performance.now() - t);`;
    const samples = [];
    for (let index = 0; index < runs; index++) {
      const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code], { cwd: ROOT });
      samples.push(Number(stdout));
    }
    rows.push([specifier, median(samples)]);
  }
  return rows;
}

const PHASES = [
  ["node bootstrap (process start → preload)", null, "preload"],
  ["module loading (import of dist/cli/main.js)", "import start", "import end"],
  ["pre-spawn work (main() → spawn of codex app-server)", "import end", "spawn app-server"],
  ["spawn() call → child 'spawn' event", "spawn app-server", "spawned app-server"],
  ["spawn → first write to codex (initialize)", "spawn app-server", "child first stdin app-server"],
  ["spawn → first stdout byte of codex (initialize answer)", "spawn app-server", "child first stdout"],
  ["spawn → first event written", "spawn app-server", "first stdout write"],
  ["first event → terminal event written", "first stdout write", "terminal written"],
  ["terminal written → codex's stdin closed", "terminal written", "child stdin end app-server"],
  ["codex's stdin closed → codex exited", "child stdin end app-server", "child exit app-server"],
  ["codex exited → main() resolved", "child exit app-server", "main resolved"],
  ["main() resolved → process exit", "main resolved", "process exit"],
  ["whole process (to the 'exit' event)", null, "process exit"],
];

function at(marks, name) {
  const [kind, ...rest] = name.split(" app-server");
  if (rest.length > 0) {
    const found = marks.find((m) => m.name === kind && m.detail?.endsWith("app-server"));
    return found?.at ?? Number.NaN;
  }
  return marks.find((m) => m.name === name)?.at ?? Number.NaN;
}

const RAW_PHASES = [
  ["node bootstrap (process start → preload)", null, "preload"],
  ["start → spawn of codex app-server", "preload", "spawn app-server"],
  ["spawn → first write to codex (initialize)", "spawn app-server", "child first stdin app-server"],
  ["spawn → first stdout byte of codex (initialize answer)", "spawn app-server", "child first stdout"],
  ["first stdout byte → codex's stdin closed (the turn)", "child first stdout", "child stdin end app-server"],
  [
    "codex's stdin closed (and SIGTERM) → codex exited",
    "child stdin end app-server",
    "child exit app-server",
  ],
  ["codex exited → process exit", "child exit app-server", "process exit"],
  ["whole process (to the 'exit' event)", null, "process exit"],
];

/** Median of each phase over `runs` runs (after one warm-up) of `node --import phase-hooks.js …args`. */
async function phases(real, args, table, extraEnv = {}) {
  const hooks = pathToFileURL(path.join(ROOT, "scripts", "bench", "phase-hooks.js")).href;
  const timeline = path.join(await real.tempDir("timeline"), "timeline.json");
  const env = { ...real.env, ...extraEnv, RENNET_BENCH_TIMELINE: timeline };
  const samples = table.map(() => []);
  let last = null;
  for (let index = 0; index <= runs; index++) {
    await run(process.execPath, ["--import", hooks, ...args], { env, cwd: real.cwd });
    last = JSON.parse(await readFile(timeline, "utf8"));
    if (index === 0) continue; // warm-up
    table.forEach(([, from, to], phase) => {
      samples[phase].push(at(last.marks, to) - (from === null ? 0 : at(last.marks, from)));
    });
  }
  return { rows: table.map(([label], phase) => [label, median(samples[phase])]), last };
}

function category(frame) {
  const url = frame.url;
  if (!url) return frame.functionName ? `(${frame.functionName.replace(/[()]/g, "")})` : "(anonymous)";
  if (url.startsWith("node:")) return "node internals";
  const file = url.startsWith("file://") ? fileURLToPath(url) : url;
  const modules = file.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const parts = file.slice(modules + "node_modules/".length).split("/");
    return `npm ${parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  return path.relative(ROOT, file);
}

/** One run of `node --cpu-prof …args`: self time by module and by function (top `top` of each). */
async function cpuProfile(real, args, env, top = 20) {
  const dir = await real.tempDir("cpuprof");
  const flags = ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", "100"];
  await run(process.execPath, [...flags, ...args], { env, cwd: real.cwd, maxBuffer: 256 * 1024 * 1024 });
  const [name] = (await readdir(dir)).filter((file) => file.endsWith(".cpuprofile"));
  const profile = JSON.parse(await readFile(path.join(dir, name), "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const modules = new Map();
  const functions = new Map();
  const add = (map, key, value) => map.set(key, (map.get(key) ?? 0) + value);
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id).callFrame;
    const value = (profile.timeDeltas[index] ?? 0) / 1000;
    add(modules, category(frame), value);
    const where = frame.url ? `${category(frame)}:${frame.lineNumber + 1}` : "";
    add(functions, `${frame.functionName || "(anonymous)"} ${where}`.trim(), value);
  });
  const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    wall: (profile.endTime - profile.startTime) / 1000,
    modules: sorted(modules),
    functions: sorted(functions),
  };
}

async function main() {
  const codexBin = pinnedCodex(ROOT);
  if (!codexBin) throw new Error("no codex: set RENNET_TEST_CODEX or npm install");
  const out = [];
  const list = (rows) => rows.map(([label, value]) => `${ms(value).padStart(8)}  ${label}`);
  if (!phasesOnly)
    out.push(`## import cost (median of ${runs}, ms inside a fresh node)`, "", ...list(await importCosts()));
  const real = await startRealTurnEnv();
  try {
    const driver = path.join(ROOT, "scripts", "bench", "profile-driver.js");
    const rennetArgs = [driver, "codex", "run", "--json", "--codex-bin", codexBin, TURN_PROMPT];
    const rennet = await phases(real, rennetArgs, PHASES);
    out.push("", `## phases of one rennet turn (median of ${runs}, ms)`, "", ...list(rennet.rows));
    out.push("", "marks of the last run:");
    for (const m of rennet.last.marks)
      out.push(`${ms(m.at).padStart(8)}  ${m.name}${m.detail ? ` (${m.detail})` : ""}`);
    out.push("", "file system calls of the last run, by phase:");
    for (const [key, count] of Object.entries(rennet.last.fsCalls))
      out.push(`${String(count).padStart(8)}  ${key}`);
    if (!phasesOnly) {
      const raw = await phases(real, rawClientArgs(ROOT, codexBin, TURN_PROMPT), RAW_PHASES);
      out.push(
        "",
        `## phases of the same turn by the raw client (median of ${runs}, ms)`,
        "",
        ...list(raw.rows),
      );
    }
    const native = npmNativeBehind(codexBin);
    if (native) {
      const rawNative = await phases(
        real,
        rawClientArgs(ROOT, native.binary, TURN_PROMPT),
        RAW_PHASES,
        native.env,
      );
      out.push(
        "",
        `## phases of the same turn by the raw client on the native binary (npm's launcher skipped, as Rennet does; median of ${runs}, ms)`,
        "",
        ...list(rawNative.rows),
      );
    }
    if (phasesOnly) return;

    const turn = await cpuProfile(real, rennetRunArgs(ROOT, TURN_PROMPT, codexBin), real.env);
    out.push(
      "",
      `## CPU profile of one turn (spans ${ms(turn.wall)} ms): self ms by module`,
      "",
      ...list(turn.modules),
    );

    const peer = await floodPeerExecutable({ root: ROOT }, await real.tempDir("flood"));
    const floodEnv = { ...real.env, RENNET_BENCH_DELTAS: "100000" };
    const flood = await cpuProfile(real, rennetRunArgs(ROOT, "flood", peer), floodEnv);
    out.push("", `## CPU profile of 100k deltas through rennet --json (spans ${ms(flood.wall)} ms)`, "");
    out.push(
      "self ms by module:",
      ...list(flood.modules),
      "",
      "self ms by function:",
      ...list(flood.functions),
    );
  } finally {
    await real.cleanup();
    process.stdout.write(`${out.join("\n")}\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`profile-turn: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
