import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ProcessInfo } from "../../src/process/process-table-parse.js";
import {
  getProcessStartTime,
  processTableSource,
  findMarkedPids,
  readProcessInfo,
  readProcessTable,
  TREE_MARKER_VARIABLE,
} from "../../src/process/process-table.js";
import { collectTree } from "../../src/process/process-tree.js";
import { snapshotProcessTree } from "../../src/internal/test-hooks.js";
import { tempDir } from "../helpers/temp.js";
import { waitFor } from "../helpers/wait.js";

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

  it("runs ps by its system path: a ps in a PATH entry (the current directory, maybe) never runs", async () => {
    const dir = await tempDir("ps");
    const marker = path.join(dir, "ran");
    writeFileSync(path.join(dir, "ps"), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    const savedPath = process.env.PATH;
    process.env.PATH = `${dir}${path.delimiter}${savedPath ?? ""}`;
    try {
      const info = await readProcessInfo(process.pid, "ps");
      expect(info?.ppid).toBe(process.ppid);
    } finally {
      process.env.PATH = savedPath;
    }
    expect(existsSync(marker)).toBe(false);
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

describe.runIf(process.platform === "linux")("findMarkedPids", () => {
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
      expect(findMarkedPids(marker, table)).toEqual(new Set([pid]));
      expect(findMarkedPids(marker, table, "proc", started)).toEqual(new Set([pid]));
      // a tree rooted after this process started cannot have given it the marker: it is not read at all
      expect(findMarkedPids(marker, table, "proc", String(Number(started) + 1))).toEqual(new Set());
      expect(findMarkedPids("another-marker", table)).toEqual(new Set());
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("finds the marker among environment bytes that are not UTF-8, first or after such bytes", async () => {
    const marker = `marker-${process.pid}-${Date.now()}`;
    // `env -i` execs sleep with exactly these variables, in this order: a cut 2-byte and a cut 3-byte sequence
    // end the values next to the marker's NULs, and an invalid byte sits inside a value
    const script = (first: boolean): string =>
      `A="$(printf 'x\\303')"; B="$(printf '\\377y\\342\\202')"; M="${TREE_MARKER_VARIABLE}=$1"; ` +
      `exec env -i ${first ? '"$M" "A=$A"' : '"A=$A" "$M"'} "B=$B" sleep 30`;
    const children = [true, false].map((first) =>
      spawn("/bin/sh", ["-c", script(first), "sh", marker], { stdio: "ignore" }),
    );
    try {
      await Promise.all(children.map((child) => new Promise((resolve) => child.once("spawn", resolve))));
      const pids = children.map((child) => child.pid!);
      // the exec chain (sh → env → sleep) has run once the process shows sleep's name
      await waitFor(
        () => pids.every((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "sleep"),
        "sh and env to exec sleep",
      );
      for (const pid of pids) {
        const bytes = readFileSync(`/proc/${pid}/environ`);
        // the bytes really are not UTF-8 (decoding them changes them), and hold the marker
        expect(Buffer.from(bytes.toString("utf8")).equals(bytes)).toBe(false);
        expect(bytes.includes(`${TREE_MARKER_VARIABLE}=${marker}\0`)).toBe(true);
      }
      const table = await readProcessTable();
      expect(findMarkedPids(marker, table)).toEqual(new Set(pids));
      expect(findMarkedPids(`${marker}0`, table)).toEqual(new Set());
    } finally {
      for (const child of children) child.kill("SIGKILL");
    }
  });
});
