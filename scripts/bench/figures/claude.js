// The Claude Code group: the whole `rennet claude run --json` turn against the same offline turn run by the
// minimal stream-json client (scripts/bench/claude-raw-client.js) and by Anthropic's Claude Agent SDK `query()`
// (scripts/bench/claude-sdk-client.js), all on the same claude binary and the same loopback Messages API; then
// 8 concurrent Rennet turns against 8 concurrent raw clients, and what any of them left running; then the same
// turns inside one running process (./claude-sessions.js).
// The bench runs as whoever runs it: as root Claude Code refuses its bypass mode without IS_SANDBOX=1, so the
// bench sets it in the throw-away environment of its own turns (Rennet never sets it).
import { existsSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  createClaudeHome,
  messagesScenarios,
  startLoopbackMessagesServer,
} from "../../../dist/testkit/index.js";
import { ensureAgentSdk } from "../claude-agent-sdk.js";
import { figure, goal } from "../figure.js";
import { concurrentBatches, leftoversFigure } from "../concurrent-batches.js";
import { cleanBaseEnv, TURN_PROMPT } from "../real-turn-env.js";
import { claudeSessionsInProcess } from "./claude-sessions.js";
import { nodeRunMs, rennetTurnMs } from "./clients.js";

const ANSWER = "This is the benchmark answer from the loopback Messages API.";
const SESSIONS = 8;

/** The claude the group runs: $RENNET_TEST_CLAUDE, else the pinned package's native binary. */
export function pinnedClaude(root) {
  if (process.env.RENNET_TEST_CLAUDE) return path.resolve(process.env.RENNET_TEST_CLAUDE);
  const exe = path.join(root, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
  // npm's placeholder (postinstall not run) is a small script: the platform package holds the same binary
  if (existsSync(exe) && statSync(exe).size > 4096) return exe;
  const platform = path.join(
    root,
    "node_modules",
    "@anthropic-ai",
    `claude-code-${process.platform}-${process.arch}`,
    process.platform === "win32" ? "claude.exe" : "claude",
  );
  return existsSync(platform) ? platform : null;
}

async function startClaudeTurnEnv() {
  const model = await startLoopbackMessagesServer({ scenario: messagesScenarios.text(ANSWER) });
  const home = await createClaudeHome({ modelUrl: model.url });
  const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-bench-claude-project-"));
  const stateDir = await mkdtemp(path.join(os.tmpdir(), "rennet-bench-claude-state-"));
  const env = home.env(cleanBaseEnv({ RENNET_STATE_DIR: stateDir }));
  delete env.RENNET_CLAUDE_BIN;
  if (typeof process.getuid === "function" && process.getuid() === 0) env.IS_SANDBOX = "1";
  return {
    env,
    cwd,
    async cleanup() {
      await model.close();
      await home.cleanup();
      for (const dir of [cwd, stateDir]) await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

const rennetArgs = (ctx, claude) => [
  path.join(ctx.root, "bin", "rennet.js"),
  "claude",
  "run",
  "--json",
  "--claude-bin",
  claude,
  TURN_PROMPT,
];
const rawArgs = (ctx, claude) => [
  path.join(ctx.root, "scripts", "bench", "claude-raw-client.js"),
  claude,
  TURN_PROMPT,
];

export async function claudeTurns(ctx) {
  const claude = pinnedClaude(ctx.root);
  if (!claude) throw new Error("no claude: set RENNET_TEST_CLAUDE or npm install");
  const sdk = await ensureAgentSdk();
  const real = await startClaudeTurnEnv();
  try {
    const node = (args) => () => nodeRunMs(ctx, args, real.env, real.cwd);
    const samples = await ctx.interleave(ctx.rounds(7, 3), {
      rennet: () => rennetTurnMs(ctx, rennetArgs(ctx, claude), real.env, real.cwd),
      raw: node(rawArgs(ctx, claude)),
      ...(sdk.entry
        ? {
            sdk: node([
              path.join(ctx.root, "scripts", "bench", "claude-sdk-client.js"),
              sdk.entry,
              claude,
              TURN_PROMPT,
            ]),
          }
        : {}),
    });
    const batches = await claudeBatches(ctx, claude, real);
    const sessions = await claudeSessionsInProcess(ctx, claude, sdk.entry, real);
    return [
      figure({
        key: "claude.turn.vsRawClient",
        label: "Claude turn: rennet claude run --json vs raw stream-json client",
        unit: "ms",
        samples: samples.rennet,
        baselineLabel: "raw stream-json client",
        baselineSamples: samples.raw,
        goal: goal("ratio", 1.1),
      }),
      sdk.entry
        ? figure({
            key: "claude.turn.vsAgentSdk",
            label: "Claude turn: rennet claude run --json vs Claude Agent SDK query()",
            unit: "ms",
            samples: samples.rennet,
            baselineLabel: "Agent SDK query(), same claude",
            baselineSamples: samples.sdk,
            goal: goal("ratio", 1.0),
          })
        : figure({
            key: "claude.turn.vsAgentSdk",
            label: "Claude turn: rennet vs Claude Agent SDK query() (skipped)",
            unit: "ms",
            samples: [Number.NaN],
            baselineLabel: "Agent SDK query()",
            baselineSamples: [Number.NaN],
            goal: null,
            notes: sdk.note,
          }),
      ...batches,
      ...sessions,
    ];
  } finally {
    await real.cleanup();
  }
}

/** 8 Rennet turns at once against 8 raw clients at once, and the processes any batch left running. */
async function claudeBatches(ctx, claude, real) {
  const { samples, leftovers } = await concurrentBatches(ctx, {
    sessions: SESSIONS,
    env: real.env,
    cwd: real.cwd,
    rennetArgs: rennetArgs(ctx, claude),
    rawArgs: rawArgs(ctx, claude),
  });
  return [
    figure({
      key: "claude.concurrency.batch8",
      label: `${SESSIONS} concurrent rennet claude turns vs ${SESSIONS} raw clients`,
      unit: "ms",
      samples: samples.rennet,
      baselineLabel: `${SESSIONS} concurrent raw clients`,
      baselineSamples: samples.raw,
      goal: goal("ratio", 1.25),
      notes: `${os.cpus().length} CPUs`,
    }),
    leftoversFigure(
      "claude.concurrency.leftovers",
      "processes still running after the rennet claude batches",
      leftovers,
    ),
  ];
}
