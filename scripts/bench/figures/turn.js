// The whole `rennet codex run --json` turn against the same offline real turn run by the minimal raw client
// (scripts/bench/raw-client.js) and by OpenAI's Codex TypeScript SDK (scripts/bench/sdk-client.js).
import { figure, goal } from "../figure.js";
import { startRealTurnEnv, TURN_PROMPT } from "../real-turn-env.js";
import {
  nodeRunMs,
  npmNativeBehind,
  rawClientArgs,
  rennetRunArgs,
  rennetTurnMs,
  sdkClientArgs,
} from "./clients.js";

/**
 * Rennet, the baseline and any `others` (each a node client's `{args, env}`, `env` added to the turn's), interleaved
 * on the same offline turn. Resolves with the samples per name: `rennet`, `baseline` and the names of `others`.
 */
export async function rennetVersus(ctx, baseline, others = {}) {
  const real = await startRealTurnEnv();
  try {
    const rennet = rennetRunArgs(ctx.root, TURN_PROMPT, ctx.codexBin);
    const node =
      (args, extraEnv = {}) =>
      () =>
        nodeRunMs(ctx, args, { ...real.env, ...extraEnv }, real.cwd);
    return await ctx.interleave(ctx.rounds(7, 3), {
      rennet: () => rennetTurnMs(ctx, rennet, real.env, real.cwd),
      baseline: node(baseline.args, baseline.env),
      ...Object.fromEntries(Object.entries(others).map(([name, run]) => [name, node(run.args, run.env)])),
    });
  } finally {
    await real.cleanup();
  }
}

export async function turnVersusRawClient(ctx) {
  const native = npmNativeBehind(ctx.codexBin);
  const others = native ? { rawNative: rawClientOnNative(ctx, native) } : {};
  const samples = await rennetVersus(
    ctx,
    { args: rawClientArgs(ctx.root, ctx.codexBin, TURN_PROMPT) },
    others,
  );
  const nativeFigures = native
    ? [
        // Rennet skips npm's node launcher too: this is what Rennet itself adds to a session
        figure({
          key: "turn.vsRawNativeClient",
          label: "real turn: rennet vs raw client on the native binary",
          unit: "ms",
          samples: samples.rennet,
          baselineLabel: "raw client, npm launcher skipped",
          baselineSamples: samples.rawNative,
          goal: null,
        }),
      ]
    : [];
  return [
    figure({
      key: "turn.vsRawClient",
      label: "real turn: rennet codex run --json vs raw client",
      unit: "ms",
      samples: samples.rennet,
      baselineLabel: "raw app-server client",
      baselineSamples: samples.baseline,
      goal: goal("ratio", 1.1),
    }),
    ...nativeFigures,
  ];
}

/**
 * The raw client on the native binary behind npm's launcher (`native`, from `npmNativeBehind`) with the variables
 * the launcher sets, or on the codex executable itself when it is not npm's launcher.
 */
export function rawClientOnNative(ctx, native) {
  return native
    ? { args: rawClientArgs(ctx.root, native.binary, TURN_PROMPT), env: native.env }
    : { args: rawClientArgs(ctx.root, ctx.codexBin, TURN_PROMPT) };
}

export async function turnVersusCodexSdk(ctx) {
  // The SDK starts the native binary of its own @openai/codex dependency, never npm's node launcher: given the
  // pinned codex's native binary it runs as it does by default, on the same codex version as Rennet.
  const native = npmNativeBehind(ctx.codexBin);
  const sdkBinary = native ? native.binary : ctx.codexBin;
  const others = {
    raw: rawClientOnNative(ctx, native),
    ...(native ? { sdkLauncher: { args: sdkClientArgs(ctx.root, ctx.codexBin, TURN_PROMPT) } } : {}),
  };
  const samples = await rennetVersus(ctx, { args: sdkClientArgs(ctx.root, sdkBinary, TURN_PROMPT) }, others);
  const sdkLabel = native ? "codex-sdk (codex exec, native binary)" : "codex-sdk (codex exec)";
  const launcherFigures = native
    ? [
        // the SDK pointed at npm's launcher: one more node process per turn, which the SDK never pays by default
        figure({
          key: "turn.vsCodexSdkLauncher",
          label: "real turn: rennet vs @openai/codex-sdk given npm's launcher",
          unit: "ms",
          samples: samples.rennet,
          baselineLabel: "codex-sdk (codex exec via npm's launcher)",
          baselineSamples: samples.sdkLauncher,
          goal: null,
        }),
      ]
    : [];
  return [
    // what any app-server client can reach against `codex exec`: the floor under the figure below
    figure({
      key: "turn.rawClientVsCodexSdk",
      label: "real turn: raw app-server client vs @openai/codex-sdk",
      unit: "ms",
      samples: samples.raw,
      baselineLabel: sdkLabel,
      baselineSamples: samples.baseline,
      goal: null,
    }),
    figure({
      key: "turn.vsCodexSdk",
      label: "real turn: rennet codex run --json vs @openai/codex-sdk",
      unit: "ms",
      samples: samples.rennet,
      baselineLabel: sdkLabel,
      baselineSamples: samples.baseline,
      goal: goal("ratio", 0.8),
    }),
    ...launcherFigures,
  ];
}
