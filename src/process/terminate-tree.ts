import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { isRunningState, type ProcessIdentity, type ProcessInfo } from "./process-table-parse.js";
import {
  processTableSource,
  findMarkedPids,
  readProcessTable,
  type ProcessTableSource,
} from "./process-table.js";
import type { PidBaseline } from "./pid-window.js";
import { processExists } from "./process-exists.js";
import { ancestorsOf, collectTree } from "./process-tree.js";
import { settledWithin } from "./settled-within.js";
import { RennetError } from "../errors.js";
import { windowsSystemExecutable } from "../windows-env.js";

/**
 * How long the child gets to exit on its own after its stdin closes: an agent that exits on stdin EOF and ends its
 * commands' process groups does so in tens of milliseconds (docs/process-hygiene.md); 500 ms leaves room for a
 * loaded machine.
 */
const DEFAULT_STDIN_GRACE_MS = 500;
/**
 * How long SIGTERM gets before SIGKILL: an agent that handles SIGTERM ends in tens of milliseconds; a process that has ignored
 * stdin EOF and SIGTERM for a further second is stuck, and every extra millisecond delays cancellation.
 */
export const DEFAULT_TERM_GRACE_MS = 1000;
/** How long to wait, after SIGKILL, for the kernel to report every process gone before giving up. */
const DEFAULT_VERIFY_TIMEOUT_MS = 5000;
const POLL_MS = 25;
const MAX_FREEZE_ROUNDS = 10;

/** The `taskkill` invocation that force-ends a Windows process and all its descendants (by its system path). Pure. */
export function buildTaskkillCommand(
  pid: number,
  env: NodeJS.ProcessEnv = process.env,
): { command: string; args: string[] } {
  if (!Number.isSafeInteger(pid) || pid <= 0)
    throw new RennetError("INTERNAL_ERROR", `taskkill needs a positive pid, got ${pid}`);
  return { command: windowsSystemExecutable("taskkill.exe", env), args: ["/PID", String(pid), "/T", "/F"] };
}

/** Our direct child at the top of the tree. */
export interface TreeRoot {
  pid: number;
  /** True until the child's `exit` event: while true the pid cannot have been reused. */
  isRunning(): boolean;
  /** Resolves when the child has exited. */
  exited: Promise<unknown>;
  /**
   * The child leads its own process group (spawned detached); members of that group count as the tree, also
   * after the child exited, until a table read finds the group empty. A group's id is not reused while the
   * group has members; only a read that comes after the group emptied and the pid was already reused as a new
   * group's id (which the kernel's pid cycling makes practically impossible within the moment that takes)
   * could mistake a stranger's group for ours.
   */
  groupLeader?: boolean;
  /**
   * The allocator's state read just before the child was spawned (see `readPidBaseline`): table reads then
   * cover only the processes created since, on Linux. Absent or null: every read covers every process.
   */
  pidBaseline?: PidBaseline | null;
}

export interface TerminateTreeOptions {
  root: TreeRoot;
  /** Closes the child's stdin (step one: a well-behaved child exits on EOF and cleans up its commands). */
  closeStdin(): void;
  /** Members seen by earlier tree walks; they are ended too if they still run with the same start time. */
  known?: Iterable<ProcessIdentity>;
  stdinGraceMs?: number;
  graceMs?: number;
  verifyTimeoutMs?: number;
  platform?: NodeJS.Platform;
  /**
   * The tree's `RENNET_TREE_ID`: processes carrying it join the tree at every table read, which finds
   * descendants that double-forked out of it (Linux).
   */
  marker?: string;
}

/** How a tree ended and what, if anything, could not be ended. */
export interface TerminateTreeResult {
  /** What ended the last process: stdin EOF alone, SIGTERM within the grace, or SIGKILL (taskkill on Windows). */
  endedBy: "stdin-eof" | "sigterm" | "sigkill";
  /** Processes still running at the end: not permitted to signal (EPERM), or alive when verification timed out. */
  survivors: ProcessIdentity[];
}

/**
 * Ends a child and every descendant: snapshot the tree, close stdin, wait `stdinGraceMs` for the child to exit,
 * SIGTERM every live member, after `graceMs` freeze (SIGSTOP) and SIGKILL whatever remains, then wait until the
 * kernel reports none of them running. Members are pids with start times, so a reused pid is never signalled.
 * Fast path: when stdin EOF ends everything, it returns after one more table read. Never rejects.
 */
export async function terminateProcessTree(options: TerminateTreeOptions): Promise<TerminateTreeResult> {
  const platform = options.platform ?? process.platform;
  const stdinGraceMs = options.stdinGraceMs ?? DEFAULT_STDIN_GRACE_MS;
  const graceMs = options.graceMs ?? DEFAULT_TERM_GRACE_MS;
  const verifyTimeoutMs = options.verifyTimeoutMs ?? DEFAULT_VERIFY_TIMEOUT_MS;
  const { root } = options;
  if (platform === "win32") return terminateOnWindows(options, stdinGraceMs, verifyTimeoutMs);

  const source = processTableSource(platform);
  const members = new TreeMembers(options.known ?? [], root, options.marker, source);
  // (0) snapshot before anything can die and orphan its children
  await members.read();
  // (a) close stdin, (b) give the child a moment to exit by itself
  closeQuietly(options.closeStdin);
  if (root.isRunning()) await settledWithin(root.exited, stdinGraceMs);
  let live = await members.read();
  let endedBy: TerminateTreeResult["endedBy"] = "stdin-eof";
  if (live.length > 0) {
    // (c) SIGTERM every live member, including ones that appear during the grace
    endedBy = "sigterm";
    const termed = new Set<number>();
    const deadline = Date.now() + graceMs;
    for (;;) {
      for (const row of live) {
        if (termed.has(row.pid)) continue;
        termed.add(row.pid);
        if (sendSignal(row.pid, "SIGTERM") === "denied") members.markUnkillable(row);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      await sleep(Math.min(POLL_MS, remaining));
      live = await members.read();
      if (live.length === 0) break;
    }
  }
  let survivors: ProcessIdentity[] = [];
  if (live.length > 0) {
    // (d) freeze and SIGKILL everything that is still running, then verify
    endedBy = "sigkill";
    survivors = await forceKill(members, verifyTimeoutMs);
  }
  if (root.isRunning()) await settledWithin(root.exited, verifyTimeoutMs);
  return { endedBy, survivors: [...survivors, ...members.unkillable()] };
}

/** Options for {@link killProcessTrees}. */
export interface KillTreesOptions {
  verifyTimeoutMs?: number;
  platform?: NodeJS.Platform;
  /** The tree's `RENNET_TREE_ID`: running processes carrying it are killed too. */
  marker?: string;
}

/**
 * SIGKILLs the given processes (each only if it still runs with the recorded start time) and all their current
 * descendants, freezing them with SIGSTOP first so none can fork away. Resolves with the pids killed, the
 * survivors, and the members spared because they are ancestors of this process (see `TreeMembers`). Does
 * nothing on Windows (no start times to verify a pid by). Never rejects.
 */
export async function killProcessTrees(
  roots: Iterable<ProcessIdentity>,
  options: KillTreesOptions = {},
): Promise<{ killed: number[]; survivors: ProcessIdentity[]; spared: ProcessIdentity[] }> {
  const platform = options.platform ?? process.platform;
  if (platform === "win32") return { killed: [], survivors: [], spared: [] };
  const members = new TreeMembers(roots, null, options.marker, processTableSource(platform));
  const killed: number[] = [];
  const survivors = await forceKill(members, options.verifyTimeoutMs, killed);
  return { killed, survivors: [...survivors, ...members.unkillable()], spared: members.spared() };
}

async function forceKill(
  members: TreeMembers,
  verifyTimeoutMs = DEFAULT_VERIFY_TIMEOUT_MS,
  killed: number[] = [],
): Promise<ProcessIdentity[]> {
  // Freeze in rounds until a table read finds no running member that is not stopped yet: a stopped process
  // cannot fork, so the last read is complete.
  const stopped = new Set<number>();
  let live: ProcessInfo[] = [];
  for (let round = 0; round < MAX_FREEZE_ROUNDS; round++) {
    live = await members.read();
    const fresh = live.filter((row) => !stopped.has(row.pid));
    if (fresh.length === 0) break;
    for (const row of fresh) {
      if (sendSignal(row.pid, "SIGSTOP") === "denied") members.markUnkillable(row);
      else stopped.add(row.pid);
    }
  }
  for (const row of live) {
    if (sendSignal(row.pid, "SIGKILL") === "sent") killed.push(row.pid);
  }
  const deadline = Date.now() + verifyTimeoutMs;
  for (;;) {
    live = await members.read();
    if (live.length === 0) return [];
    if (Date.now() >= deadline) return live.map(({ pid, startTime }) => ({ pid, startTime }));
    // a member that appeared after the freeze (should not happen) is killed too
    for (const row of live) if (!stopped.has(row.pid)) sendSignal(row.pid, "SIGKILL");
    await sleep(POLL_MS);
  }
}

/**
 * The set of processes that belong to a tree, keyed by pid with the start time seen when each joined.
 * A member counts only while a table row shows the same pid with the same start time, still running.
 * This process is never a member (nor a way to reach the trees it started) and its ancestors are spared: a
 * reaper can run inside the orphaned tree it ends (an agent's command that runs Rennet), and signalling itself
 * or what runs it would stop the reaper.
 */
class TreeMembers {
  readonly #known = new Map<number, string>();
  readonly #unkillable = new Map<number, string>();
  readonly #spared = new Map<number, string>();
  readonly #root: TreeRoot | null;
  readonly #marker: string | undefined;
  readonly #source: ProcessTableSource;
  #groupEmptied = false;
  /** The oldest start time of the tree (its root's): no process older than that can carry the marker. */
  #since: string | null = null;

  constructor(
    known: Iterable<ProcessIdentity>,
    root: TreeRoot | null,
    marker: string | undefined,
    source: ProcessTableSource,
  ) {
    for (const { pid, startTime } of known) {
      this.#known.set(pid, startTime);
      if (this.#since === null || Number(startTime) < Number(this.#since)) this.#since = startTime;
    }
    this.#root = root;
    this.#marker = marker;
    this.#source = source;
  }

  /** Reads the process table (and the tree marker) and refreshes the members from it. */
  async read(): Promise<ProcessInfo[]> {
    if (this.#source === "ps" && this.#nothingToFind()) return [];
    const baseline = this.#root?.pidBaseline;
    const scope = baseline ? { rootPid: this.#root.pid, baseline, include: this.#known.keys() } : undefined;
    const table = await readProcessTable(this.#source, scope);
    const root = this.#root;
    if (this.#since === null && root?.isRunning())
      this.#since = table.find((row) => row.pid === root.pid)?.startTime ?? null;
    return this.refresh(table, findMarkedPids(this.#marker, table, this.#source, this.#since));
  }

  /**
   * Adds the root, the running members of its group (see {@link TreeRoot.groupLeader}), every process carrying
   * the tree marker and every descendant of a live member; returns the live, signallable members.
   */
  refresh(fullTable: readonly ProcessInfo[], marked: ReadonlySet<number> = new Set()): ProcessInfo[] {
    // no walk goes through this process into the trees it started
    const table = fullTable.filter((row) => row.pid !== process.pid);
    const byPid = new Map(fullTable.map((row) => [row.pid, row] as const));
    const ancestors = ancestorsOf(byPid, process.pid);
    byPid.delete(process.pid);
    for (const pid of marked) {
      const row = byPid.get(pid);
      if (row) this.#known.set(row.pid, row.startTime);
    }
    const root = this.#root;
    if (root?.isRunning()) {
      const row = byPid.get(root.pid);
      if (row) this.#known.set(row.pid, row.startTime);
    }
    if (root?.groupLeader && !this.#groupEmptied) {
      const group = table.filter((member) => member.pgid === root.pid && isRunningState(member.state));
      if (group.length === 0 && !root.isRunning()) this.#groupEmptied = true;
      for (const member of group) this.#known.set(member.pid, member.startTime);
    }
    const liveRoots: number[] = [];
    for (const [pid, startTime] of this.#known) {
      const row = byPid.get(pid);
      if (row && row.startTime === startTime && isRunningState(row.state)) liveRoots.push(pid);
    }
    const live: ProcessInfo[] = [];
    for (const row of collectTree(table, liveRoots)) {
      if (!isRunningState(row.state)) continue;
      this.#known.set(row.pid, row.startTime);
      if (ancestors.has(row.pid)) this.#spared.set(row.pid, row.startTime);
      else if (this.#unkillable.get(row.pid) !== row.startTime) live.push(row);
    }
    return live;
  }

  /**
   * Where the table costs a `ps` run: true when a read could find no member, which signals tell without it.
   * The root has exited, its group is empty and every other member seen so far is gone; then no process can be
   * found by group, by being a member, or as the descendant of one (no tree marker is read there).
   */
  #nothingToFind(): boolean {
    const root = this.#root;
    if (root === null || root.isRunning()) return false;
    if (root.groupLeader && !this.#groupEmptied) {
      if (processExists(-root.pid)) return false;
      this.#groupEmptied = true;
    }
    for (const pid of this.#known.keys()) if (pid !== root.pid && processExists(pid)) return false;
    return true;
  }

  markUnkillable(row: ProcessIdentity): void {
    this.#unkillable.set(row.pid, row.startTime);
  }

  unkillable(): ProcessIdentity[] {
    return [...this.#unkillable].map(([pid, startTime]) => ({ pid, startTime }));
  }

  /** Members that were not signalled because they are ancestors of this process. */
  spared(): ProcessIdentity[] {
    return [...this.#spared].map(([pid, startTime]) => ({ pid, startTime }));
  }
}

/** Sends `signal` to `pid`: `gone` when it no longer exists, `denied` when it is not ours to signal. Never throws. */
export function sendSignal(pid: number, signal: NodeJS.Signals): "sent" | "gone" | "denied" {
  try {
    process.kill(pid, signal);
    return "sent";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" ? "denied" : "gone";
  }
}

function closeQuietly(close: () => void): void {
  try {
    close();
  } catch {
    // an already closed stdin is fine
  }
}

async function terminateOnWindows(
  options: TerminateTreeOptions,
  stdinGraceMs: number,
  verifyTimeoutMs: number,
): Promise<TerminateTreeResult> {
  const { root } = options;
  closeQuietly(options.closeStdin);
  if (root.isRunning()) await settledWithin(root.exited, stdinGraceMs);
  if (!root.isRunning()) return { endedBy: "stdin-eof", survivors: [] };
  const { command, args } = buildTaskkillCommand(root.pid);
  await new Promise<void>((resolve) => {
    execFile(command, args, { windowsHide: true }, () => resolve());
  });
  await settledWithin(root.exited, verifyTimeoutMs);
  return { endedBy: "sigkill", survivors: root.isRunning() ? [{ pid: root.pid, startTime: "" }] : [] };
}
