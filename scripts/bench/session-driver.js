#!/usr/bin/env node
// Runs COUNT sequential turns in this one process, as an application that has already loaded its client runs
// session after session, and prints the wall time of each (ms) as one JSON array on stdout. KIND is the client:
// `rennet` (createCodex({codex: CODEX_BIN}).run), `sdk` (sdk-client.js's sdkTurn, CODEX_BIN as the SDK's
// codexPathOverride) or `raw` (raw-client.js's rawTurn). The first turn also pays the client's loading.
// usage: node scripts/bench/session-driver.js KIND COUNT CODEX_BIN PROMPT   (cwd = the current directory)
import { performance } from "node:perf_hooks";

const [kind, count, codexBin, prompt] = process.argv.slice(2);
const cwd = process.cwd();

async function client() {
  if (kind === "rennet") {
    const { createCodex } = await import("../../dist/index.js");
    const codex = createCodex({ codex: codexBin });
    return async () => {
      const { terminal } = await codex.run({ prompt, cwd });
      if (terminal.outcome !== "completed") throw new Error(`rennet ended ${terminal.outcome}`);
    };
  }
  if (kind === "sdk") {
    const { sdkTurn } = await import("./sdk-client.js");
    return () => sdkTurn(codexBin, prompt, cwd);
  }
  if (kind === "raw") {
    const { rawTurn } = await import("./raw-client.js");
    return async () => {
      const status = await rawTurn(codexBin, prompt, cwd);
      if (status !== "completed") throw new Error(`the raw turn ended ${status}`);
    };
  }
  throw new Error(`usage: session-driver.js rennet|sdk|raw COUNT CODEX_BIN PROMPT (got kind ${kind})`);
}

const times = [];
const start = performance.now();
const turn = await client();
for (let index = 0; index < Number(count); index++) {
  const begin = index === 0 ? start : performance.now();
  await turn();
  times.push(performance.now() - begin);
}
process.stdout.write(`${JSON.stringify(times)}\n`);
