#!/usr/bin/env node
import { main } from "../dist/cli/main.js";

// A reader that goes away (`rennet … | head -1`) must not crash the process: a write error on stdout or stderr
// can arrive after main() returned, so it is ignored for the life of the process (a running turn is cancelled
// by main's own handling first).
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

process.exitCode = await main(process.argv.slice(2));
