import { execFile } from "node:child_process";
import { readFile, readdir } from "node:fs/promises";
import {
  PS_TABLE_ARGS,
  isRunningState,
  parseProcStat,
  parsePsTable,
  type ProcessInfo,
} from "./process-table-parse.js";

/** Which way the process table is read: `/proc` on Linux, `ps` on other unix systems, nothing on Windows. */
export type ProcessTableSource = "proc" | "ps" | "none";

/** The table source used for a platform. */
export function processTableSource(platform: NodeJS.Platform = process.platform): ProcessTableSource {
  if (platform === "linux" || platform === "android") return "proc";
  if (platform === "win32") return "none";
  return "ps";
}

/** Reads every process of the system. Never rejects: an unreadable table is an empty one. */
export async function readProcessTable(
  source: ProcessTableSource = processTableSource(),
): Promise<ProcessInfo[]> {
  if (source === "proc") return readProcTable();
  if (source === "ps") return parsePsTable(await runPs([...PS_TABLE_ARGS]));
  return [];
}

/** Reads one process; null when it does not exist (or the platform cannot tell). Never rejects. */
export async function readProcessInfo(
  pid: number,
  source: ProcessTableSource = processTableSource(),
): Promise<ProcessInfo | null> {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  if (source === "proc") return readProcStat(pid);
  if (source === "ps") {
    const args = ["-o", PS_TABLE_ARGS[2] ?? "", "-p", String(pid)];
    return parsePsTable(await runPs(args)).find((row) => row.pid === pid) ?? null;
  }
  return null;
}

/**
 * The start-time token of a running process (Linux: `/proc/<pid>/stat` field 22; macOS: `ps -o lstart=`,
 * one-second resolution), or null when the process does not run (zombies included) or the platform cannot tell.
 */
export async function getProcessStartTime(
  pid: number,
  source: ProcessTableSource = processTableSource(),
): Promise<string | null> {
  const info = await readProcessInfo(pid, source);
  if (!info || !isRunningState(info.state)) return null;
  return info.startTime;
}

async function readProcStat(pid: number): Promise<ProcessInfo | null> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null;
  }
}

async function readProcTable(): Promise<ProcessInfo[]> {
  let names: string[];
  try {
    names = await readdir("/proc");
  } catch {
    return [];
  }
  const rows = await Promise.all(
    names.filter((name) => /^\d+$/.test(name)).map((name) => readProcStat(Number(name))),
  );
  return rows.filter((row): row is ProcessInfo => row !== null);
}

function runPs(args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      "ps",
      args,
      { env: { ...process.env, LC_ALL: "C" }, maxBuffer: 64 * 1024 * 1024, windowsHide: true },
      // ps exits 1 when -p names no process; its (empty) stdout is still the answer
      (_error, stdout) => resolve(typeof stdout === "string" ? stdout : ""),
    );
  });
}

/** The environment variable that marks every process of one spawned tree (set by `spawnChild`). */
export const TREE_MARKER_VARIABLE = "RENNET_TREE_ID";

/**
 * Pids of running processes whose environment carries `RENNET_TREE_ID=<marker>`: every process of a spawned
 * tree that kept its inherited environment, even one that left the tree by double-forking into a new session.
 * Linux only (`/proc/<pid>/environ`, readable for our own uid); elsewhere an empty set. Never rejects.
 */
export async function readMarkedPids(
  marker: string | undefined,
  table: readonly ProcessInfo[],
  source: ProcessTableSource = processTableSource(),
): Promise<Set<number>> {
  const marked = new Set<number>();
  if (!marker || source !== "proc") return marked;
  const needle = Buffer.from(`\0${TREE_MARKER_VARIABLE}=${marker}\0`);
  const first = Buffer.from(`${TREE_MARKER_VARIABLE}=${marker}\0`);
  await Promise.all(
    table.map(async (row) => {
      if (row.pid === process.pid || !isRunningState(row.state)) return;
      try {
        const environ = await readFile(`/proc/${row.pid}/environ`);
        if (environ.includes(needle) || environ.subarray(0, first.length).equals(first)) marked.add(row.pid);
      } catch {
        // another user's process, or gone: not ours to find
      }
    }),
  );
  return marked;
}
