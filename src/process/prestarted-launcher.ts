import type { Launcher, StdioChild } from "./stdio-child.js";

/**
 * A launcher whose first launch is `child`, started already by its owner from the spec that launch is given, and
 * whose later launches (a restart) start anew through `launcher`. For an owner that starts the child before the
 * code that speaks to it has loaded: the child's own start-up then runs while that code loads.
 */
export function prestartedLauncher(child: StdioChild, launcher: Launcher): Launcher {
  let prestarted: StdioChild | null = child;
  return (spec) => {
    const started = prestarted ?? launcher(spec);
    prestarted = null;
    return started;
  };
}
