/**
 * The children still running when this process exits (`process.exit()`, an uncaught exception, the event loop
 * drained): a library's caller that exits mid-turn must not leave an agent running its turn on, as `claude -p`
 * does after its stdin closes. Each is SIGKILLed on `exit`, with its process group when it leads one. A child is
 * held from its spawn until it exits; after that its pid may be reused, so it is never signalled again. The
 * `exit` listener is installed while a child is held, and removed with the last one.
 */
const held = new Map<number, { groupLeader: boolean }>();

function killHeld(): void {
  for (const [pid, { groupLeader }] of held) {
    try {
      process.kill(groupLeader ? -pid : pid, "SIGKILL");
    } catch {
      // already gone
    }
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
