/**
 * The parts of discovery that start processes: the `--version` and handshake probes, their launcher, and the
 * login shell. Loaded on the first cache miss, so a warm discovery loads none of it before its session spawns.
 */
import type { Launcher } from "../../process/stdio-child.js";
import { createStdioLauncher } from "../../process/stdio-launcher.js";

export { probeHandshake } from "./handshake-probe.js";
export { probeVersion } from "./version-probe.js";
export { readLoginShellPath } from "../../discovery/login-shell-path.js";

/**
 * The handshake probe's default launcher: the app-server launcher (own process group, tree marker, spawn
 * registry, tree walk, whole-tree termination) with short graces, since a probe has no turn to wind down.
 */
export const launchProbeAppServer: Launcher = createStdioLauncher({ stdinGraceMs: 250, graceMs: 250 });
