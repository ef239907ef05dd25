import { execFileSync } from "node:child_process";
import { buildTaskkillCommand } from "./terminate-tree.js";

/**
 * The children still running when this process exits (`process.exit()`, an uncaught exception, the event loop
 * drained): a library's caller that exits mid-turn must not leave an agent running its turn on, as `claude -p`
 * does after its stdin closes. Each is SIGKILLed on `exit`, with its process group when it leads one (on Windows
 * its tree is ended with `taskkill /T /F`). A child is held from its spawn until it exits; after that its pid may
 * be reused, so it is never signalled again. The `exit` listener is installed while a child is held, and removed
 * with the last one.
 */
const held = new Map<number, { groupLeader: boolean }>();

function killHeld(): void {
  for (const [pid, { groupLeader }] of held) killHeldTree(pid, groupLeader);
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

/** Holds the running child `pid` until the returned release is called (when it exited). Idempotent release. */
export function killOnExit(pid: number, groupLeader: boolean): () => void {
  if (held.size === 0) process.on("exit", killHeld);
  held.set(pid, { groupLeader });
  return () => {
    if (!held.delete(pid)) return;
    if (held.size === 0) process.off("exit", killHeld);
  };
}
