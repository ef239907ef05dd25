// Turns inside a running application (scripts/bench/session-driver.js): several sequential turns per process,
// each process's first turn (which also loads the client) left out. What each further session costs an app
// that runs many, without node's start and the client's module loading that the whole-command figures include.
import path from "node:path";
import { figure } from "../figure.js";
import { timedRunOk } from "../timed-run.js";

const TURNS_PER_PROCESS = 4;

/**
 * Runs the session driver once per round for every client of `clients` (name → { kind, bin, prompt, env,
 * sdkEntry? }), interleaved, in `cwd`; resolves with each client's turn times, first turns left out.
 */
export async function inProcessTurnTimes(ctx, clients, cwd) {
  const driver = path.join(ctx.root, "scripts", "bench", "session-driver.js");
  const turns =
    ({ kind, bin, prompt, env, sdkEntry }) =>
    async () => {
      const run = await timedRunOk({
        command: process.execPath,
        args: [driver, kind, String(TURNS_PER_PROCESS), bin, prompt, ...(sdkEntry ? [sdkEntry] : [])],
        env,
        cwd,
        scratchDir: ctx.scratchDir,
      });
      const times = JSON.parse(run.stdout.toString("utf8"));
      if (!Array.isArray(times) || times.length !== TURNS_PER_PROCESS) throw new Error(`${kind}: no times`);
      return times.slice(1);
    };
  const runs = await ctx.interleave(
    ctx.rounds(5, 2),
    Object.fromEntries(Object.entries(clients).map(([name, client]) => [name, turns(client)])),
  );
  return Object.fromEntries(Object.entries(runs).map(([name, each]) => [name, each.flat()]));
}

/** The figure (no goal) of client `name`'s turn times in `times` against client `baseline`'s. */
export function inProcessFigure(times, { key, label, name, baselineLabel, baseline }) {
  return figure({
    key,
    label,
    unit: "ms",
    samples: times[name],
    baselineLabel,
    baselineSamples: times[baseline],
    goal: null,
  });
}
