// Turns inside a running application: several sequential turns per process through Rennet's library, the Codex
// SDK and the raw client's turn function (scripts/bench/session-driver.js), each process's first turn (which
// also loads the client) left out. What each further session costs an app that runs many.
import path from "node:path";
import { figure } from "../figure.js";
import { startRealTurnEnv, TURN_PROMPT } from "../real-turn-env.js";
import { timedRunOk } from "../timed-run.js";
import { npmNativeBehind } from "./clients.js";

const TURNS_PER_PROCESS = 4;

export async function sessionsInProcess(ctx) {
  // the SDK and the raw client get the native binary (as the SDK starts it by default); Rennet gets the same
  // executable as every other Rennet figure and skips npm's launcher itself
  const native = npmNativeBehind(ctx.codexBin);
  const real = await startRealTurnEnv();
  const driver = path.join(ctx.root, "scripts", "bench", "session-driver.js");
  try {
    const turns = (kind, codexBin, env) => async () => {
      const run = await timedRunOk({
        command: process.execPath,
        args: [driver, kind, String(TURNS_PER_PROCESS), codexBin, TURN_PROMPT],
        env,
        cwd: real.cwd,
        scratchDir: ctx.scratchDir,
      });
      const times = JSON.parse(run.stdout.toString("utf8"));
      if (!Array.isArray(times) || times.length !== TURNS_PER_PROCESS) throw new Error(`${kind}: no times`);
      return times.slice(1);
    };
    const nativeEnv = native ? { ...real.env, ...native.env } : real.env;
    const nativeBin = native ? native.binary : ctx.codexBin;
    const samples = await ctx.interleave(ctx.rounds(5, 2), {
      rennet: turns("rennet", ctx.codexBin, real.env),
      sdk: turns("sdk", nativeBin, nativeEnv),
      raw: turns("raw", nativeBin, nativeEnv),
    });
    const flat = Object.fromEntries(Object.entries(samples).map(([name, runs]) => [name, runs.flat()]));
    const each = (key, label, name, baselineLabel, baseline) =>
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
      each(
        "sessions.vsRawClient",
        "turn in a running app: rennet library vs raw client",
        "rennet",
        "raw client, native binary",
        "raw",
      ),
      each(
        "sessions.vsCodexSdk",
        "turn in a running app: rennet library vs @openai/codex-sdk",
        "rennet",
        "codex-sdk, native binary",
        "sdk",
      ),
      each(
        "sessions.rawClientVsCodexSdk",
        "turn in a running app: raw client vs @openai/codex-sdk",
        "raw",
        "codex-sdk, native binary",
        "sdk",
      ),
    ];
  } finally {
    await real.cleanup();
  }
}
