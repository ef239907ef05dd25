// Finds processes that outlived a batch: every process the batch started carries RENNET_BENCH_RUN=<nonce> in its
// environment (inherited by codex and its children), so a scan of /proc/<pid>/environ finds them. Linux only.
import { readdirSync, readFileSync } from "node:fs";

export const MARKER_VARIABLE = "RENNET_BENCH_RUN";

/** Pids of running processes whose environment carries `RENNET_BENCH_RUN=<nonce>`; null where /proc is missing. */
export function pidsWithMarker(nonce) {
  if (process.platform !== "linux") return null;
  const needle = `${MARKER_VARIABLE}=${nonce}`;
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "latin1");
      if (environ.split("\0").includes(needle)) pids.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

/** Kills the given pids (processes this benchmark started and that outlived their batch). */
export function killPids(pids) {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
