// The peak resident set size of this process, in KiB. On Linux it is the `VmHWM` of /proc/self/status: the peak of
// this program's own memory. `process.resourceUsage().maxRSS` is not: Linux keeps the larger of it and the RSS
// the forked process had before its exec, which is the RSS of the parent that spawned it (a bench process holding
// megabytes of captured output then shows up as every child's peak). Elsewhere `maxRSS` is the best there is.
import { readFileSync } from "node:fs";

export function peakRssKiB() {
  if (process.platform === "linux") {
    try {
      const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
      if (match) return Number(match[1]);
    } catch {
      // no /proc: fall back below
    }
  }
  return process.resourceUsage().maxRSS;
}
