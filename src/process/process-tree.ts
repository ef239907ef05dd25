import type { ProcessInfo } from "./process-table-parse.js";
import { processTableSource, readProcessTable, type ProcessTableSource } from "./process-table.js";

/**
 * The given roots (those present in `table`) and all their descendants, found by following ppid links.
 * Pure; the order is breadth-first from the roots. Roots missing from the table contribute only their
 * children still listed with them as parent.
 */
export function collectTree(table: readonly ProcessInfo[], roots: readonly number[]): ProcessInfo[] {
  const byPid = new Map<number, ProcessInfo>();
  const children = new Map<number, ProcessInfo[]>();
  for (const row of table) {
    byPid.set(row.pid, row);
    const siblings = children.get(row.ppid);
    if (siblings) siblings.push(row);
    else children.set(row.ppid, [row]);
  }
  const seen = new Set<number>();
  const result: ProcessInfo[] = [];
  const queue: number[] = [];
  for (const pid of roots) {
    if (seen.has(pid)) continue;
    seen.add(pid);
    queue.push(pid);
    const row = byPid.get(pid);
    if (row) result.push(row);
  }
  for (let index = 0; index < queue.length; index++) {
    const parent = queue[index];
    if (parent === undefined) continue;
    for (const child of children.get(parent) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      queue.push(child.pid);
      result.push(child);
    }
  }
  return result;
}

/** The pids of `pid`'s parent, its parent's parent and so on, as far as the table (`byPid`) lists them. Pure. */
export function ancestorsOf(byPid: ReadonlyMap<number, ProcessInfo>, pid: number): Set<number> {
  const ancestors = new Set<number>();
  for (let row = byPid.get(pid); row && row.ppid > 0 && !ancestors.has(row.ppid); row = byPid.get(row.ppid))
    ancestors.add(row.ppid);
  return ancestors;
}

/** Reads the process table once and returns `rootPid` (if it exists) plus every descendant. Never rejects. */
export async function snapshotProcessTree(
  rootPid: number,
  source: ProcessTableSource = processTableSource(),
): Promise<ProcessInfo[]> {
  return collectTree(await readProcessTable(source), [rootPid]);
}
