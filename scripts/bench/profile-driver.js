// bin/rennet.js with two marks around the import of the CLI (for scripts/bench/profile-turn.js).
const mark = globalThis.__rennetBenchMark ?? (() => {});
mark("import start");
const { main } = await import("../../dist/cli/main.js");
mark("import end");
process.exitCode = await main(process.argv.slice(2));
mark("main resolved");
