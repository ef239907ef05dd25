#!/usr/bin/env node
// `npm run test:compat`: the real-binary test project against several released codex versions, as a matrix.
//
//   npm run test:compat                                  default versions (below) and the pinned one
//   npm run test:compat -- --versions 0.72.0,0.130.0     these versions
//   npm run test:compat -- --json                        one JSON object with every cell
//
// Each version is installed once into the cache of scripts/compat/install-codex.js (outside the repository:
// $RENNET_COMPAT_CACHE, else ~/.cache/rennet-compat/codex), then `vitest run --project real` runs with
// RENNET_TEST_CODEX pointing at that version's npm launcher, one test file at a time. A cell is `ok`,
// `ok -n` (n tests skipped: a capability that version lacks, named in the test's title), `skip` (every test
// of the file skipped) or `FAIL n` (failed tests). Below the table: per version the totals and wall time, then
// every failed test and every skipped one with its title. Exit code 1 only when a test failed or a version
// produced no report; skips are not failures.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PINNED = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).devDependencies[
  "@openai/codex"
];
const DEFAULT_VERSIONS = ["0.72.0", "0.100.0", "0.120.0", "0.130.0", "0.148.0", PINNED];

function parseArgs(argv) {
  const options = { versions: DEFAULT_VERSIONS, json: false, files: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === "--versions") {
      const value = argv[i + 1];
      if (!value) usage("--versions needs a comma-separated list");
      options.versions = value.split(",").map((v) => (v === "pinned" ? PINNED : v.trim()));
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
    "usage: npm run test:compat -- [--versions 0.72.0,0.130.0,pinned] [--json] [test files…]\n" +
      `default versions: ${DEFAULT_VERSIONS.join(", ")}`,
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
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function install(version) {
  const result = await run(
    process.execPath,
    [path.join(ROOT, "scripts", "compat", "install-codex.js"), "--json", version],
    process.env,
  );
  const line = result.stdout.trim().split("\n").filter(Boolean).at(-1);
  const parsed = line ? JSON.parse(line) : null;
  if (!parsed || parsed.status === "failed") {
    throw new Error(`codex ${version} could not be installed: ${parsed?.error ?? result.stderr.trim()}`);
  }
  return parsed.codex;
}

/** The first lines of a failed test's assertion message, indented under its title; empty when there is none. */
function failureDetail(result) {
  const lines = (result.failureMessages ?? [])
    .join("\n")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const shown = lines.slice(0, 12).map((line) => `\n            ${line.slice(0, 300)}`);
  return (
    shown.join("") +
    (lines.length > shown.length ? `\n            … ${lines.length - shown.length} more lines` : "")
  );
}

/** Per test file: its cell and counts, from vitest's JSON report; plus the failed and skipped test titles. */
function summarize(report) {
  const byFile = new Map();
  const failedTests = [];
  const skippedTests = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(ROOT, file.name);
    const results = file.assertionResults ?? [];
    const count = (status) => results.filter((r) => status.includes(r.status)).length;
    const failed = count(["failed"]);
    const passed = count(["passed"]);
    const skipped = count(["skipped", "pending", "todo", "disabled"]);
    for (const r of results) {
      if (r.status === "failed") failedTests.push(`${name} > ${r.fullName ?? r.title}${failureDetail(r)}`);
      else if (r.status !== "passed") skippedTests.push(`${name} > ${r.fullName ?? r.title}`);
    }
    const fileFailed = file.status === "failed" && failed === 0;
    if (fileFailed) failedTests.push(`${name}: ${(file.message ?? "the file failed").split("\n")[0]}`);
    const cell =
      failed > 0 || fileFailed
        ? `FAIL ${failed || "(file)"}`
        : passed === 0
          ? "skip"
          : skipped > 0
            ? `ok -${skipped}`
            : "ok";
    byFile.set(name, { cell, failed: failed + (fileFailed ? 1 : 0), passed, skipped });
  }
  return { byFile, failedTests, skippedTests };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const columns = new Map();
  for (const version of options.versions) {
    process.stderr.write(`codex ${version}: installing… `);
    const launcher = await install(version);
    process.stderr.write("testing… ");
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
        ...options.files,
      ],
      { ...process.env, RENNET_TEST_CODEX: launcher },
    );
    const report = await readFile(outputFile, "utf8").then(JSON.parse, () => null);
    await rm(dir, { recursive: true, force: true });
    if (!report) {
      columns.set(version, { error: result.stderr.trim().split("\n").slice(-3).join(" ") || "no report" });
      process.stderr.write("no report\n");
      continue;
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    columns.set(version, { ...summarize(report), seconds });
    process.stderr.write(`${seconds} s\n`);
  }

  const files = [
    ...new Set([...columns.values()].flatMap((c) => (c.byFile ? [...c.byFile.keys()] : []))),
  ].sort();
  const failed = [...columns.values()].some((c) => c.error !== undefined || c.failedTests.length > 0);
  if (options.json) {
    const json = {};
    for (const [version, column] of columns)
      json[version] = column.error
        ? { error: column.error }
        : {
            seconds: column.seconds,
            files: Object.fromEntries([...column.byFile].map(([file, { cell }]) => [file, cell])),
            failed: column.failedTests,
            skipped: column.skippedTests,
          };
    console.log(JSON.stringify(json));
  } else {
    const versions = [...columns.keys()];
    const width = Math.max(...files.map((f) => f.length), 10);
    console.log(["test file".padEnd(width), ...versions.map((v) => v.padEnd(9))].join(" | "));
    console.log(["-".repeat(width), ...versions.map(() => "-".repeat(9))].join("-|-"));
    for (const file of files) {
      const row = versions.map((v) => {
        const column = columns.get(v);
        return (column.error ? "error" : (column.byFile.get(file)?.cell ?? "-")).padEnd(9);
      });
      console.log([file.padEnd(width), ...row].join(" | "));
    }
    console.log("");
    for (const [version, column] of columns) {
      if (column.error) {
        console.log(`codex ${version}: the run produced no report: ${column.error}`);
        continue;
      }
      const sum = (key) => [...column.byFile.values()].reduce((total, counts) => total + counts[key], 0);
      console.log(
        `codex ${version}: ${column.byFile.size} files, ${sum("passed")} passed, ${sum("skipped")} skipped, ` +
          `${sum("failed")} failed, ${column.seconds} s`,
      );
      for (const test of column.failedTests) console.log(`  FAILED  ${test}`);
      for (const test of column.skippedTests) console.log(`  skipped ${test}`);
    }
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
