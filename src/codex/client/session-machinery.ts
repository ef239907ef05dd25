/**
 * What a client needs once it starts something: the app-server launcher, the reaper of trees left by a Rennet
 * process that died, and the check of an explicit codex path. A client loads this module with its first
 * session or check, so importing the package loads no child-process, process-table or random-id code.
 */
export { spawnStdioChild } from "../../process/stdio-launcher.js";
export { reapOrphans } from "../../process/reap-orphans.js";
export { usableExplicitCodex } from "../launch/explicit-codex.js";
