import { execFileSync } from "node:child_process";
import { isRunningState } from "./process-table-parse.js";
import { findMarkedPids, processTableSource, readProcessTableSync } from "./process-table.js";
import { collectTree } from "./process-tree.js";
import { buildTaskkillCommand, sendSignal } from "./terminate-tree.js";

/**
 * The children still running when this process exits (`process.exit()`, an uncaught exception, the event loop
 * drained): a library's caller that exits mid-turn must not leave an agent running its turn on, as `claude -p`
 * does after its stdin closes. Each is SIGKILLed on `exit`, with its process group when it leads one (on Windows
 * its tree is ended with `taskkill /T /F`), and on Linux with every process of its tree outside that group (see
 * {@link escapedMembers}). A child is held from its spawn until it exits; after that its pid may be reused, so it
 * is never signalled again. The `exit` listener is installed while a child is held, and removed with the last one.
 */
const held = new Map<number, { groupLeader: boolean; marker: string | null }>();

/** Rounds of {@link escapedMembers}: each freezes what the one before found, so a few always settle. */
const FREEZE_ROUNDS = 5;

function killHeld(): void {
  for (const [pid, { groupLeader, marker }] of held) {
    // read while the child runs: once it is killed, its children's parent links no longer lead from it
    const escaped = marker === null ? [] : escapedMembers(pid, marker);
    killHeldTree(pid, groupLeader);
    for (const member of escaped) sendSignal(member, "SIGKILL");
  }
}

/**
 * Linux: the processes of the child's tree that a group kill misses (an agent runs each command in a process
 * group of its own; a daemon double-forks into a session of its own, reparented to init): every descendant by
 * parent link and every process carrying the tree marker. Each is frozen (SIGSTOP) as it is found, and the table
 * read again until a read finds nothing new, so none forks away before the kill. Elsewhere: none. Never throws.
 */
function escapedMembers(pid: number, marker: string): number[] {
  if (processTableSource() !== "proc") return [];
  const found = new Set<number>();
  for (let round = 0; round < FREEZE_ROUNDS; round++) {
    const table = readProcessTableSync();
    const since = table.find((row) => row.pid === pid)?.startTime ?? null;
    const fresh: number[] = [];
    for (const row of collectTree(table, [pid, ...found]))
      if (row.pid !== pid && isRunningState(row.state) && !found.has(row.pid)) fresh.push(row.pid);
    for (const member of findMarkedPids(marker, table, "proc", since))
      if (member !== pid && !found.has(member) && !fresh.includes(member)) fresh.push(member);
    if (fresh.length === 0) break;
    for (const member of fresh) {
      found.add(member);
      sendSignal(member, "SIGSTOP");
    }
  }
  return [...found];
}

/** Runs a command to its end, synchronously (an `exit` listener cannot wait for anything). */
type RunSync = (command: string, args: readonly string[]) => void;

const runSync: RunSync = (command, args) => {
  execFileSync(command, args, { stdio: "ignore", windowsHide: true, timeout: 5000 });
};

/**
 * Ends one held child from the `exit` listener. POSIX: SIGKILL, to its process group when it leads one. Windows:
 * `taskkill /T /F` on its pid, which ends its descendants too (a signal would end the child alone: the `cmd.exe`
 * of a `.cmd` launch, leaving the node and agent it started running). Never throws.
 */
export function killHeldTree(
  pid: number,
  groupLeader: boolean,
  platform: NodeJS.Platform = process.platform,
  run: RunSync = runSync,
): void {
  try {
    if (platform === "win32") {
      const taskkill = buildTaskkillCommand(pid);
      run(taskkill.command, taskkill.args);
    } else {
      process.kill(groupLeader ? -pid : pid, "SIGKILL");
    }
  } catch {
    // already gone, or taskkill failed: nothing more can be done while exiting
  }
}

/**
 * Holds the running child `pid` (whose tree carries `marker`, if given) until the returned release is called
 * (when it exited). Idempotent release.
 */
export function killOnExit(pid: number, groupLeader: boolean, marker: string | null = null): () => void {
  if (held.size === 0) process.on("exit", killHeld);
  held.set(pid, { groupLeader, marker });
  return () => {
    if (!held.delete(pid)) return;
    if (held.size === 0) process.off("exit", killHeld);
  };
}
