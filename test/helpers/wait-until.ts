import { vi } from "vitest";

/**
 * Waits (polling every 20 ms) until `condition` holds; fails the test after 20 s, naming `what`, so a bug
 * cannot hang the suite.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what = "the condition",
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error(`still waiting for ${what}`);
    },
    { timeout: 20_000, interval: 20 },
  );
}
