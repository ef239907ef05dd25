// Claude Code turns inside a running application: several sequential turns per process through Rennet's library,
// the raw stream-json client's turn function and the Agent SDK's `query()` (scripts/bench/claude-session-driver.js),
// each process's first turn (which also loads the client) left out. What each further session costs an app that
// runs many, without node's start and the client's module loading that the whole-command figures include.
import path from "node:path";
import { figure } from "../figure.js";
import { TURN_PROMPT } from "../real-turn-env.js";
import { timedRunOk } from "../timed-run.js";

const TURNS_PER_PROCESS = 4;

/** The in-process figures on `claude` in the group's environment `real`; `sdkEntry` null skips the SDK rows. */
export async function claudeSessionsInProcess(ctx, claude, sdkEntry, real) {
  const driver = path.join(ctx.root, "scripts", "bench", "claude-session-driver.js");
  const turns = (kind) => async () => {
    const run = await timedRunOk({
      command: process.execPath,
      args: [driver, kind, String(TURNS_PER_PROCESS), claude, TURN_PROMPT, ...(sdkEntry ? [sdkEntry] : [])],
      env: real.env,
      cwd: real.cwd,
      scratchDir: ctx.scratchDir,
    });
    const times = JSON.parse(run.stdout.toString("utf8"));
    if (!Array.isArray(times) || times.length !== TURNS_PER_PROCESS) throw new Error(`${kind}: no times`);
    return times.slice(1);
  };
  const runs = await ctx.interleave(ctx.rounds(5, 2), {
    rennet: turns("rennet"),
    raw: turns("raw"),
    ...(sdkEntry ? { sdk: turns("sdk") } : {}),
  });
  const flat = Object.fromEntries(Object.entries(runs).map(([name, each]) => [name, each.flat()]));
  const inProcess = (key, label, name, baselineLabel, baseline) =>
    figure({
      key,
      label,
      unit: "ms",
      samples: flat[name],
      baselineLabel,
      baselineSamples: flat[baseline],
      goal: null,
    });
  return [
    inProcess(
      "claude.sessions.vsRawClient",
      "Claude turn in a running app: rennet library vs raw stream-json client",
      "rennet",
      "raw client's turn function",
      "raw",
    ),
    ...(sdkEntry
      ? [
          inProcess(
            "claude.sessions.vsAgentSdk",
            "Claude turn in a running app: rennet library vs Agent SDK query()",
            "rennet",
            "Agent SDK query(), same claude",
            "sdk",
          ),
          inProcess(
            "claude.sessions.rawClientVsAgentSdk",
            "Claude turn in a running app: raw client vs Agent SDK query()",
            "raw",
            "Agent SDK query(), same claude",
            "sdk",
          ),
        ]
      : []),
  ];
}
