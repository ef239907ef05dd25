#!/usr/bin/env node
// Runs COUNT sequential turns in this one process, as an application that has already loaded its client runs
// session after session, and prints the wall time of each (ms) as one JSON array on stdout. The first turn also
// pays the client's loading. KIND is the client; BIN the agent executable they all run:
//   codex:  `rennet` (createCodex({codex: BIN}).run), `sdk` (sdk-client.js's sdkTurn, BIN as the SDK's
//           codexPathOverride), `raw` (raw-client.js's rawTurn);
//   claude: `claude-rennet` (createClaudeCode({claude: BIN}).run), `claude-raw` (claude-raw-client.js's
//           rawClaudeTurn), `claude-sdk` (claude-sdk-client.js's agentSdkTurn on the Agent SDK at SDK_ENTRY).
// usage: node scripts/bench/session-driver.js KIND COUNT BIN PROMPT [SDK_ENTRY]   (cwd = the turn's)
import { performance } from "node:perf_hooks";

const [kind, count, bin, prompt, sdkEntry] = process.argv.slice(2);
const cwd = process.cwd();

/** Throws `message` unless `ok`: a turn that did not complete is not a sample. */
function check(ok, message) {
  if (!ok) throw new Error(message);
}

/** The loader of a Rennet client that `create` makes from the package's entry: its turn must complete. */
function rennetClient(create) {
  return async () => {
    const client = create(await import("../../dist/index.js"));
    return async () => {
      const { terminal } = await client.run({ prompt, cwd });
      check(terminal.outcome === "completed", `rennet ended ${terminal.outcome}`);
    };
  };
}

/** Each client's loader: it loads the client and returns one turn. */
const CLIENTS = new Map([
  ["rennet", rennetClient(({ createCodex }) => createCodex({ codex: bin }))],
  [
    "sdk",
    async () => {
      const { sdkTurn } = await import("./sdk-client.js");
      return () => sdkTurn(bin, prompt, cwd);
    },
  ],
  [
    "raw",
    async () => {
      const { rawTurn } = await import("./raw-client.js");
      return async () => {
        const status = await rawTurn(bin, prompt, cwd);
        check(status === "completed", `the raw turn ended ${status}`);
      };
    },
  ],
  ["claude-rennet", rennetClient(({ createClaudeCode }) => createClaudeCode({ claude: bin }))],
  [
    "claude-raw",
    async () => {
      const { rawClaudeTurn } = await import("./claude-raw-client.js");
      return async () => {
        const { ok } = await rawClaudeTurn(bin, prompt, cwd);
        check(ok, "the raw turn did not end with a successful result");
      };
    },
  ],
  [
    "claude-sdk",
    async () => {
      check(sdkEntry, "claude-sdk needs SDK_ENTRY");
      const { agentSdkTurn } = await import("./claude-sdk-client.js");
      const turn = await agentSdkTurn(sdkEntry);
      return async () => check(await turn(bin, prompt, cwd), "the SDK turn did not end with a success");
    },
  ],
]);

const load = CLIENTS.get(kind);
check(
  load,
  `usage: session-driver.js ${[...CLIENTS.keys()].join("|")} COUNT BIN PROMPT [SDK_ENTRY] (got ${kind})`,
);
const times = [];
const start = performance.now();
const turn = await load();
for (let index = 0; index < Number(count); index++) {
  const begin = index === 0 ? start : performance.now();
  await turn();
  times.push(performance.now() - begin);
}
process.stdout.write(`${JSON.stringify(times)}\n`);
