// Turns inside a running application through Rennet's library, the Codex SDK and the raw client's turn function
// (./in-process-turns.js).
import { startRealTurnEnv, TURN_PROMPT } from "../real-turn-env.js";
import { npmNativeBehind } from "./clients.js";
import { inProcessFigure, inProcessTurnTimes } from "./in-process-turns.js";

export async function sessionsInProcess(ctx) {
  // the SDK and the raw client get the native binary (as the SDK starts it by default); Rennet gets the same
  // executable as every other Rennet figure and skips npm's launcher itself
  const native = npmNativeBehind(ctx.codexBin);
  const real = await startRealTurnEnv();
  try {
    const nativeEnv = native ? { ...real.env, ...native.env } : real.env;
    const nativeBin = native ? native.binary : ctx.codexBin;
    const client = (kind, bin, env) => ({ kind, bin, prompt: TURN_PROMPT, env });
    const times = await inProcessTurnTimes(
      ctx,
      {
        rennet: client("rennet", ctx.codexBin, real.env),
        sdk: client("sdk", nativeBin, nativeEnv),
        raw: client("raw", nativeBin, nativeEnv),
      },
      real.cwd,
    );
    return [
      inProcessFigure(times, {
        key: "sessions.vsRawClient",
        label: "turn in a running app: rennet library vs raw client",
        name: "rennet",
        baselineLabel: "raw client, native binary",
        baseline: "raw",
      }),
      inProcessFigure(times, {
        key: "sessions.vsCodexSdk",
        label: "turn in a running app: rennet library vs @openai/codex-sdk",
        name: "rennet",
        baselineLabel: "codex-sdk, native binary",
        baseline: "sdk",
      }),
      inProcessFigure(times, {
        key: "sessions.rawClientVsCodexSdk",
        label: "turn in a running app: raw client vs @openai/codex-sdk",
        name: "raw",
        baselineLabel: "codex-sdk, native binary",
        baseline: "sdk",
      }),
    ];
  } finally {
    await real.cleanup();
  }
}
