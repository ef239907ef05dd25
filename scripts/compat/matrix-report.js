// The cells, table and totals of `npm run test:compat` (scripts/compat/test-compat.js), from vitest's JSON
// reports. Pure except `printMatrix`, which writes to stdout.
import path from "node:path";

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

/**
 * Per test file: its cell (`ok`, `ok -n`, `skip`, `FAIL n`) and counts, from vitest's JSON report; plus the
 * failed and skipped test titles. Paths are relative to `root`.
 */
export function summarize(report, root) {
  const byFile = new Map();
  const failedTests = [];
  const skippedTests = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(root, file.name);
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

/**
 * Whether a column failed: no report, a failed test, or a vitest that exited non-zero (an unhandled error, a
 * failed global setup, a type error) even when every test it reported passed.
 */
export function columnFailed(column) {
  return column.error !== undefined || column.failedTests.length > 0 || column.exitCode !== 0;
}

/** One harness's columns as the JSON `--json` prints. */
export function matrixJson(columns) {
  const json = {};
  for (const [version, column] of columns)
    json[version] = column.error
      ? { error: column.error, exitCode: column.exitCode }
      : {
          seconds: column.seconds,
          exitCode: column.exitCode,
          files: Object.fromEntries([...column.byFile].map(([file, { cell }]) => [file, cell])),
          failed: column.failedTests,
          skipped: column.skippedTests,
        };
  return json;
}

/** Prints one harness's table (a row per test file, a column per version), then per version its totals. */
export function printMatrix(harness, columns) {
  const files = [
    ...new Set([...columns.values()].flatMap((c) => (c.byFile ? [...c.byFile.keys()] : []))),
  ].sort();
  const versions = [...columns.keys()];
  const width = Math.max(...files.map((f) => f.length), 10);
  console.log([`${harness} test file`.padEnd(width), ...versions.map((v) => v.padEnd(9))].join(" | "));
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
      console.log(
        `${harness} ${version}: the run produced no report (exit ${column.exitCode}): ${column.error}`,
      );
      continue;
    }
    const sum = (key) => [...column.byFile.values()].reduce((total, counts) => total + counts[key], 0);
    console.log(
      `${harness} ${version}: ${column.byFile.size} files, ${sum("passed")} passed, ${sum("skipped")} skipped, ` +
        `${sum("failed")} failed, ${column.seconds} s`,
    );
    if (column.exitCode !== 0 && column.failedTests.length === 0)
      console.log(`  FAILED  vitest exited ${column.exitCode} without a failed test: ${column.stderrTail}`);
    for (const test of column.failedTests) console.log(`  FAILED  ${test}`);
    for (const test of column.skippedTests) console.log(`  skipped ${test}`);
  }
}

/**
 * The capability table of a harness's versions: one row per capability whose value differs between them (the
 * ones every version shares are named below it). `capabilities(version)` returns a flat record. Pure.
 */
export function capabilityTable(versions, capabilities) {
  const records = versions.map((version) => capabilities(version));
  const names = Object.keys(records[0] ?? {}).filter((name) => name !== "version");
  const differing = names.filter((name) => new Set(records.map((record) => record[name])).size > 1);
  const same = names.filter((name) => !differing.includes(name));
  const width = Math.max(...names.map((name) => name.length), 10);
  const lines = [
    ["capability".padEnd(width), ...versions.map((v) => v.padEnd(9))].join(" | "),
    ["-".repeat(width), ...versions.map(() => "-".repeat(9))].join("-|-"),
    ...differing.map((name) =>
      [name.padEnd(width), ...records.map((record) => (record[name] ? "yes" : "no").padEnd(9))].join(" | "),
    ),
  ];
  if (same.length > 0) lines.push(`same in every version: ${same.join(", ")}`);
  return lines.join("\n");
}
