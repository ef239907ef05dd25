// Preloaded with `node --import` into a measured process: on exit, writes the process's peak resident set size
// (KiB, see peak-rss.js) to the file named by RENNET_BENCH_RSS_FILE.
import { writeFileSync } from "node:fs";
import { peakRssKiB } from "./peak-rss.js";

const file = process.env.RENNET_BENCH_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(peakRssKiB())));
