#!/usr/bin/env node
// Runs COUNT sequential Claude Code turns in this one process, as an application that has already loaded its
// client runs session after session, and prints the wall time of each (ms) as one JSON array on stdout. KIND is
// the client: `rennet` (createClaudeCode({claude: CLAUDE_BIN}).run), `raw` (claude-raw-client.js's rawClaudeTurn)
// or `sdk` (claude-sdk-client.js's agentSdkTurn on the Agent SDK at SDK_ENTRY). The first turn also pays the
// client's loading.
// usage: node scripts/bench/claude-session-driver.js KIND COUNT CLAUDE_BIN PROMPT [SDK_ENTRY]   (cwd = the turn's)
import { performance } from "node:perf_hooks";

const [kind, count, claudeBin, prompt, sdkEntry] = process.argv.slice(2);
const cwd = process.cwd();

async function client() {
  if (kind === "rennet") {
    const { createClaudeCode } = await import("../../dist/index.js");
    const claude = createClaudeCode({ claude: claudeBin });
    return async () => {
      const { terminal } = await claude.run({ prompt, cwd });
      if (terminal.outcome !== "completed") throw new Error(`rennet ended ${terminal.outcome}`);
    };
  }
  if (kind === "raw") {
    const { rawClaudeTurn } = await import("./claude-raw-client.js");
    return async () => {
      const { ok } = await rawClaudeTurn(claudeBin, prompt, cwd);
      if (!ok) throw new Error("the raw turn did not end with a successful result");
    };
  }
  if (kind === "sdk" && sdkEntry) {
    const { agentSdkTurn } = await import("./claude-sdk-client.js");
    const turn = await agentSdkTurn(sdkEntry);
    return async () => {
      if (!(await turn(claudeBin, prompt, cwd))) throw new Error("the SDK turn did not end with a success");
    };
  }
  throw new Error(
    `usage: claude-session-driver.js rennet|raw|sdk COUNT CLAUDE_BIN PROMPT [SDK_ENTRY] (got ${kind})`,
  );
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
