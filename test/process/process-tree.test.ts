import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { ProcessInfo } from "../../src/process/process-table-parse.js";
import {
  getProcessStartTime,
  processTableSource,
  readMarkedPids,
  readProcessInfo,
  readProcessTable,
  TREE_MARKER_VARIABLE,
} from "../../src/process/process-table.js";
import { collectTree } from "../../src/process/process-tree.js";
import { snapshotProcessTree } from "../../src/internal/test-hooks.js";

function row(pid: number, ppid: number, state = "S"): ProcessInfo {
  return { pid, ppid, pgid: pid, startTime: `t${pid}`, state };
}

describe("collectTree", () => {
  const table = [
    row(1, 0),
    row(10, 1),
    row(11, 10),
    row(12, 11),
    row(13, 10),
    row(20, 1),
    row(21, 20),
    row(30, 99),
  ];

  it("returns the root and every descendant, breadth first", () => {
    expect(collectTree(table, [10]).map((entry) => entry.pid)).toEqual([10, 11, 13, 12]);
  });

  it("walks several roots without duplicates", () => {
    expect(collectTree(table, [10, 11, 20]).map((entry) => entry.pid)).toEqual([10, 11, 20, 13, 12, 21]);
  });

  it("still finds children of a root that is no longer listed", () => {
    expect(collectTree(table, [99]).map((entry) => entry.pid)).toEqual([30]);
  });

  it("terminates on a ppid cycle", () => {
    expect(collectTree([row(5, 6), row(6, 5)], [5]).map((entry) => entry.pid)).toEqual([5, 6]);
  });
});

describe.runIf(process.platform === "linux")("reading the process table on Linux", () => {
  it("uses /proc, and /proc and ps agree on this process", async () => {
    expect(processTableSource("linux")).toBe("proc");
    expect(processTableSource("darwin")).toBe("ps");
    expect(processTableSource("win32")).toBe("none");
    const fromProc = (await readProcessTable("proc")).find((entry) => entry.pid === process.pid);
    const fromPs = (await readProcessTable("ps")).find((entry) => entry.pid === process.pid);
    expect(fromProc?.ppid).toBe(process.ppid);
    expect(fromPs?.ppid).toBe(process.ppid);
    expect(fromPs?.pgid).toBe(fromProc?.pgid);
    // the ps start time (lstart) is the same token whether read for one pid or for the whole table
    expect(await getProcessStartTime(process.pid, "ps")).toBe(fromPs?.startTime);
    expect(await getProcessStartTime(process.pid, "proc")).toBe(fromProc?.startTime);
  });

  it("reports nothing for a pid that does not exist", async () => {
    expect(await readProcessInfo(2 ** 30, "proc")).toBeNull();
    expect(await readProcessInfo(2 ** 30, "ps")).toBeNull();
    expect(await getProcessStartTime(-1)).toBeNull();
  });

  it("snapshots this process's own subtree", async () => {
    const tree = await snapshotProcessTree(process.ppid);
    expect(tree[0]?.pid).toBe(process.ppid);
    expect(tree.map((entry) => entry.pid)).toContain(process.pid);
  });
});

describe.runIf(process.platform === "linux")("readMarkedPids", () => {
  it("finds a process by its tree marker, and skips processes that started before the tree", async () => {
    const marker = `marker-${process.pid}-${Date.now()}`;
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
      env: { ...process.env, [TREE_MARKER_VARIABLE]: marker },
      stdio: "ignore",
    });
    try {
      await new Promise((resolve) => child.once("spawn", resolve));
      const pid = child.pid!;
      const table = await readProcessTable();
      const started = table.find((entry) => entry.pid === pid)?.startTime ?? null;
      expect(started).not.toBeNull();
      expect(await readMarkedPids(marker, table)).toEqual(new Set([pid]));
      expect(await readMarkedPids(marker, table, "proc", started)).toEqual(new Set([pid]));
      // a tree rooted after this process started cannot have given it the marker: it is not read at all
      expect(await readMarkedPids(marker, table, "proc", String(Number(started) + 1))).toEqual(new Set());
      expect(await readMarkedPids("another-marker", table)).toEqual(new Set());
    } finally {
      child.kill("SIGKILL");
    }
  });
});
