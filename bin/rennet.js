#!/usr/bin/env node
import { createRequire } from "node:module";

// The CLI loads synchronously where Node can (`require` of an ES module, Node >= 20.19), which costs less than
// the asynchronous loader for every module on the start path; elsewhere it is imported.
let cli;
try {
  cli = createRequire(import.meta.url)("../dist/cli/main.js");
} catch {
  cli = await import("../dist/cli/main.js");
}

// A reader that goes away (`rennet … | head -1`) must not crash the process: a write error on stdout or stderr
// can arrive after main() returned, so it is ignored for the life of the process (a running turn is cancelled
// by main's own handling first).
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

process.exitCode = await cli.main(process.argv.slice(2));
