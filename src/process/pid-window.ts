/**
 * Which pids can belong to processes created after a given moment, on Linux. Pure.
 *
 * Linux hands out pids in one cyclic order per pid namespace: each new task (process or thread) gets the next
 * free number after the last one handed out, wrapping below `pid_max`. So every task created after a tree's
 * root has a pid in the cyclic range just after the root's pid and up to the last pid handed out, as long as
 * the counter has not gone round a whole lap since. The kernel's count of forks since boot (`processes` in
 * `/proc/stat`, system-wide, so never below this namespace's count) bounds how far it went. A table read for one
 * tree then needs only the processes in that range: an older process cannot descend from the root, cannot have
 * inherited its marker and cannot be in its group (the root leads a new session).
 */

/** The allocator's state read when a root was about to be spawned: the kernel's fork count at that moment. */
export interface PidBaseline {
  forks: number;
}

/** What the window is computed from: the root, the baseline, and the allocator's state now. */
export interface PidWindowInput {
  rootPid: number;
  baseline: PidBaseline;
  /** The fork count now (`processes` in `/proc/stat`). */
  forks: number | null;
  /** `/proc/sys/kernel/pid_max`. */
  pidMax: number | null;
  /** `/proc/sys/kernel/ns_last_pid`: the last pid handed out in this namespace; null when not readable. */
  lastPid: number | null;
}

/**
 * A test for "this pid may have been handed out after the root", or null when that cannot be bounded (a value
 * is missing, or enough forks happened that the counter may have lapped): then every process must be read.
 * The test may accept more pids than needed, never fewer. Half of the cycle is the limit, which leaves room for
 * forks that failed after their pid was taken (those move the counter without being counted).
 */
/** Linux's `RESERVED_PIDS`: a wrapped pid counter starts again here, not at 1. */
const RESERVED_PIDS = 300;

export function pidWindow(input: PidWindowInput): ((pid: number) => boolean) | null {
  const { rootPid, baseline, forks, pidMax, lastPid } = input;
  if (forks === null || pidMax === null || !isPositive(rootPid) || !isPositive(pidMax)) return null;
  // after a wrap the kernel hands out pids from RESERVED_PIDS up: the cycle is that much shorter than pid_max
  const cycle = pidMax - RESERVED_PIDS;
  const since = forks - baseline.forks;
  if (cycle <= 0 || !Number.isSafeInteger(since) || since < 0 || since * 2 >= cycle) return null;
  if (lastPid === null || !isPositive(lastPid) || lastPid >= pidMax) {
    // without the last pid: only when the counter cannot have reached pid_max since the root
    if (rootPid + since * 2 >= pidMax) return null;
    return (pid) => pid > rootPid;
  }
  if (lastPid >= rootPid) return (pid) => pid > rootPid && pid <= lastPid;
  // the counter wrapped after the root: the rest of the cycle above the root, then the start of it
  return (pid) => pid > rootPid || pid <= lastPid;
}

/** The `processes` line of `/proc/stat` (forks since boot), or null when it is not there. */
export function parseForkCount(procStat: string): number | null {
  const match = /^processes\s+(\d+)\s*$/m.exec(procStat);
  const count = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(count) ? count : null;
}

function isPositive(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}
