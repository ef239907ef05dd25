// Preloaded with `node --import` into a measured process: on exit, writes the process's peak resident set size
// (`process.resourceUsage().maxRSS`, KiB) to the file named by RENNET_BENCH_RSS_FILE.
import { writeFileSync } from "node:fs";

const file = process.env.RENNET_BENCH_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
