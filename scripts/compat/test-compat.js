#!/usr/bin/env node
// `npm run test:compat`: the real-binary test project against several released versions of each harness's CLI,
// as one matrix per harness.
//
//   npm run test:compat                                   both harnesses, default versions (below) and the pinned ones
//   npm run test:compat -- --harness claude               one harness (codex | claude | all)
//   npm run test:compat -- --versions 0.72.0,0.130.0      these codex versions
//   npm run test:compat -- --claude-versions 2.0.77,pinned  these Claude Code versions
//   npm run test:compat -- --json                         one JSON object with every cell
//
// Each version is installed once into a cache outside the repository (codex: scripts/compat/install-codex.js,
// $RENNET_COMPAT_CACHE, else ~/.cache/rennet-compat/codex; Claude Code: scripts/compat/install-claude.js,
// $RENNET_COMPAT_CLAUDE_CACHE, else ~/.cache/rennet-compat/claude), then `vitest run --project real` runs one
// test file at a time with RENNET_TEST_CODEX (the codex files, test/real/claude excluded) or RENNET_TEST_CLAUDE
// (the files under test/real/claude) pointing at that version. A cell is `ok`, `ok -n` (n tests skipped: a
// capability that version lacks, named in the test's title), `skip` (every test of the file skipped) or
// `FAIL n` (failed tests). Below each table: per version the totals and wall time, then every failed test and
// every skipped one with its title; after Claude Code's, the capability table (src/claude/capabilities.ts) of
// its versions where they differ. Exit code 1 when a test failed, a version produced no report, or a vitest run
// exited non-zero for any other reason; skips are not failures.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { capabilityTable, columnFailed, matrixJson, printMatrix, summarize } from "./matrix-report.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DEV = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).devDependencies;
const PINNED = { codex: DEV["@openai/codex"], claude: DEV["@anthropic-ai/claude-code"] };
const DEFAULT_VERSIONS = {
  codex: ["0.72.0", "0.87.0", "0.100.0", "0.120.0", "0.130.0", "0.148.0", PINNED.codex],
  // 1.0.128 (the last 1.0) and 2.0.0: refused as too old; 2.0.77 (last 2.0), 2.1.112 (last cli.js): supported
  claude: ["1.0.128", "2.0.0", "2.0.77", "2.1.112", PINNED.claude],
};
const CLAUDE_TESTS = "test/real/claude/";

/** How each harness's versions are installed and tested. */
const HARNESSES = {
  codex: {
    installer: "install-codex.js",
    pathKey: "codex",
    variable: "RENNET_TEST_CODEX",
    filter: (files) => [...files, "--exclude", `${CLAUDE_TESTS}**`],
  },
  claude: {
    installer: "install-claude.js",
    pathKey: "claude",
    variable: "RENNET_TEST_CLAUDE",
    filter: (files) => (files.length > 0 ? files : [CLAUDE_TESTS]),
  },
};

function parseArgs(argv) {
  const options = {
    harnesses: ["codex", "claude"],
    versions: { ...DEFAULT_VERSIONS },
    json: false,
    files: [],
  };
  const list = (value, harness) =>
    value.split(",").map((v) => (v.trim() === "pinned" ? PINNED[harness] : v.trim()));
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === "--versions" || arg === "--claude-versions") {
      if (!value) usage(`${arg} needs a comma-separated list`);
      const harness = arg === "--versions" ? "codex" : "claude";
      options.versions[harness] = list(value, harness);
      i += 1;
    } else if (arg === "--harness") {
      if (!["codex", "claude", "all"].includes(value)) usage("--harness takes codex, claude or all");
      options.harnesses = value === "all" ? ["codex", "claude"] : [value];
      i += 1;
    } else if (arg === "--json") options.json = true;
    else if (arg === "-h" || arg === "--help") usage();
    else options.files.push(arg);
  }
  return options;
}

function usage(message) {
  if (message) console.error(`test-compat: ${message}`);
  console.error(
    "usage: npm run test:compat -- [--harness codex|claude|all] [--versions 0.72.0,pinned] " +
      "[--claude-versions 2.0.77,pinned] [--json] [test files…]\n" +
      `default codex versions: ${DEFAULT_VERSIONS.codex.join(", ")}\n` +
      `default Claude Code versions: ${DEFAULT_VERSIONS.claude.join(", ")}`,
  );
  process.exit(message ? 2 : 0);
}

function run(command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

async function install(harness, version) {
  const { installer, pathKey } = HARNESSES[harness];
  const result = await run(
    process.execPath,
    [path.join(ROOT, "scripts", "compat", installer), "--json", version],
    process.env,
  );
  const line = result.stdout.trim().split("\n").filter(Boolean).at(-1);
  const parsed = line ? JSON.parse(line) : null;
  if (!parsed || parsed.status === "failed" || !parsed[pathKey])
    throw new Error(`${harness} ${version} could not be installed: ${parsed?.error ?? result.stderr.trim()}`);
  return parsed[pathKey];
}

/** Runs the real project against one installed version; the column of the matrix. */
async function testVersion(harness, version, files) {
  const binary = await install(harness, version);
  const dir = await mkdtemp(path.join(os.tmpdir(), "rennet-compat-report-"));
  const outputFile = path.join(dir, "report.json");
  const vitest = path.join(ROOT, "node_modules", "vitest", "vitest.mjs");
  const started = Date.now();
  const result = await run(
    process.execPath,
    [
      vitest,
      "run",
      "--project",
      "real",
      "--no-file-parallelism",
      "--reporter=json",
      `--outputFile=${outputFile}`,
      ...HARNESSES[harness].filter(files),
    ],
    { ...process.env, [HARNESSES[harness].variable]: binary },
  );
  const report = await readFile(outputFile, "utf8").then(JSON.parse, () => null);
  await rm(dir, { recursive: true, force: true });
  const stderrTail = result.stderr.trim().split("\n").slice(-3).join(" ");
  if (!report) return { error: stderrTail || "no report", exitCode: result.code };
  const seconds = Math.round((Date.now() - started) / 1000);
  return { ...summarize(report, ROOT), seconds, exitCode: result.code, stderrTail };
}

/** The capability table of the Claude Code versions tested (from the build of src/claude/capabilities.ts). */
async function claudeCapabilityTable(versions) {
  const { claudeCapabilities } = await import(path.join(ROOT, "dist", "claude", "capabilities.js"));
  return capabilityTable(versions, (version) => claudeCapabilities(version));
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const matrices = new Map();
  for (const harness of options.harnesses) {
    const columns = new Map();
    for (const version of options.versions[harness]) {
      process.stderr.write(`${harness} ${version}: installing and testing… `);
      const column = await testVersion(harness, version, options.files).catch((error) => ({
        error: error instanceof Error ? error.message : String(error),
        exitCode: null,
      }));
      columns.set(version, column);
      process.stderr.write(column.error ? `no report (exit ${column.exitCode})\n` : `${column.seconds} s\n`);
    }
    matrices.set(harness, columns);
  }
  const failed = [...matrices.values()].some((columns) => [...columns.values()].some(columnFailed));
  const claudeVersions = matrices.has("claude") ? options.versions.claude : [];
  const table = claudeVersions.length > 0 ? await claudeCapabilityTable(claudeVersions) : null;
  if (options.json) {
    const json = Object.fromEntries(
      [...matrices].map(([harness, columns]) => [harness, matrixJson(columns)]),
    );
    console.log(JSON.stringify(json));
  } else {
    for (const [harness, columns] of matrices) {
      printMatrix(harness, columns);
      if (harness === "claude" && table !== null) console.log(`\nClaude Code capabilities:\n${table}`);
      console.log("");
    }
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
