import { setTimeout as sleep } from "node:timers/promises";

/**
 * Polls `read` every 20 ms until it returns something other than `undefined` or `false`, and resolves with that;
 * rejects after `timeoutMs`, naming `what`, so a bug cannot hang the suite. An error `read` throws ends the wait
 * at once (a condition that can never hold any more says so by throwing).
 */
export async function waitFor<T>(
  read: () => T | Promise<T>,
  what = "the condition",
  timeoutMs = 30_000,
): Promise<Exclude<T, undefined | false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}
