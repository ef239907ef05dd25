import { spawn } from "node:child_process";
import { buildTaskkillCommand } from "../../process/terminate-tree.js";
import { setTimeout as delay } from "node:timers/promises";

/**
 * Kills a probe child and everything in its process group (POSIX: the child was spawned `detached`, so it
 * leads its own group) or its whole tree (Windows: `taskkill /T /F`). Resolves once the group is gone or after
 * a short bound; never throws.
 */
export async function killTree(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  if (process.platform === "win32") {
    await new Promise<void>((resolve) => {
      const { command, args } = buildTaskkillCommand(pid);
      const killer = spawn(command, args, {
        stdio: "ignore",
        windowsHide: true,
      });
      killer.once("error", () => resolve());
      killer.once("exit", () => resolve());
    });
    return;
  }
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    return; // ESRCH: nothing of the group is left
  }
  for (let i = 0; i < 50 && groupAlive(pid); i++) await delay(20);
}

/** Whether any process of the group `pgid` still exists (zombies included). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
