import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isRunningState, parseProcStat, parsePsTable } from "../../src/process/process-table-parse.js";
import { fixture } from "./process-test-helpers.js";

describe("parseProcStat", () => {
  it("reads pid, state, ppid, pgid and the start time (field 22)", () => {
    const text =
      "7519 (node) S 7488 7483 2131 0 -1 4194304 2702 0 0 0 15 6 0 0 20 0 11 0 41508 780070912 11039 " +
      "18446744073709551615 11988992 39846385 140722695497776 0 0 0 0 16781312 83459 0 0 0 17 1 0 0 0 0 0\n";
    expect(parseProcStat(text)).toEqual({
      pid: 7519,
      ppid: 7488,
      pgid: 7483,
      startTime: "41508",
      state: "S",
    });
  });

  it("counts fields from the last parenthesis, so a command name with spaces and parens cannot shift them", () => {
    const text = "42 (evil) Z 1 2 (x) R) Z 9 10 11 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 123456 0 0\n";
    expect(parseProcStat(text)).toEqual({ pid: 42, ppid: 9, pgid: 10, startTime: "123456", state: "Z" });
  });

  it("rejects truncated or malformed text", () => {
    expect(parseProcStat("")).toBeNull();
    expect(parseProcStat("12 (x) S 1 2 3")).toBeNull();
    expect(parseProcStat("abc (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0")).toBeNull();
  });
});

describe("parsePsTable", () => {
  it("parses macOS `ps -A -o pid=,ppid=,pgid=,stat=,lstart=` output and normalizes the start time", () => {
    const rows = parsePsTable(readFileSync(fixture("ps-macos.txt"), "utf8"));
    expect(rows).toHaveLength(6);
    expect(rows[0]).toEqual({ pid: 1, ppid: 0, pgid: 1, state: "Ss", startTime: "Mon Dec 1 09:12:03 2025" });
    expect(rows.find((row) => row.pid === 8123)).toEqual({
      pid: 8123,
      ppid: 8120,
      pgid: 8123,
      state: "Z",
      startTime: "Tue Dec 2 14:05:59 2025",
    });
  });

  it("skips lines that are not rows", () => {
    expect(parsePsTable("garbage\n  12 x y\n\n 5 1 5 S Mon Dec  1 09:12:03 2025\r\n")).toEqual([
      { pid: 5, ppid: 1, pgid: 5, state: "S", startTime: "Mon Dec 1 09:12:03 2025" },
    ]);
  });
});

describe("isRunningState", () => {
  it("treats zombies and dead tasks as not running", () => {
    expect(["S", "R", "D", "T", "Ss+", "I"].map(isRunningState)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(["Z", "Z+", "X", "x", ""].map(isRunningState)).toEqual([false, false, false, false, false]);
  });
});
