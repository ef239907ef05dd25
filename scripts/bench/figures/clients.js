// The processes the figures time, as argv for `node`, and the checks that a run did what it should.
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import {
  npmCodexPackageRoot,
  npmManagedEnv,
  npmNativeBinaryCandidates,
} from "../../../dist/codex/launch/npm-native.js";
import { lastJsonLine, timedRunOk } from "../timed-run.js";

/** `node bin/rennet.js codex run --json [--codex-bin BIN] PROMPT`. */
export function rennetRunArgs(root, prompt, codexBin) {
  const bin = codexBin === undefined ? [] : ["--codex-bin", codexBin];
  return [path.join(root, "bin", "rennet.js"), "codex", "run", "--json", ...bin, prompt];
}

/** `node scripts/bench/raw-client.js BIN PROMPT`. */
export function rawClientArgs(root, codexBin, prompt) {
  return [path.join(root, "scripts", "bench", "raw-client.js"), codexBin, prompt];
}

/** `node scripts/bench/sdk-client.js BIN PROMPT`. */
export function sdkClientArgs(root, codexBin, prompt) {
  return [path.join(root, "scripts", "bench", "sdk-client.js"), codexBin, prompt];
}

/** Runs `node …args` (exit 0 required) and returns its wall time in ms. */
export async function nodeRunMs(ctx, args, env, cwd) {
  const run = await timedRunOk({ command: process.execPath, args, env, cwd, scratchDir: ctx.scratchDir });
  return run.ms;
}

/** Runs a `rennet codex run --json` argv, requires a completed terminal event, returns the wall time. */
export async function rennetTurnMs(ctx, args, env, cwd) {
  const run = await timedRunOk({ command: process.execPath, args, env, cwd, scratchDir: ctx.scratchDir });
  const terminal = lastJsonLine(run.stdout);
  if (terminal?.type !== "terminal" || terminal.outcome !== "completed") {
    throw new Error(`rennet did not end with a completed terminal event: ${JSON.stringify(terminal)}`);
  }
  return run.ms;
}

/**
 * The native binary npm's launcher at `codexBin` would start, with the variables the launcher gives it, as
 * Rennet launches it; null when `codexBin` is not npm's launcher.
 */
export function npmNativeBehind(codexBin) {
  const packageRoot = npmCodexPackageRoot(realpathSync(codexBin), process.platform);
  if (packageRoot === null) return null;
  const binary = npmNativeBinaryCandidates(packageRoot, process.platform, process.arch).find(existsSync);
  return binary === undefined ? null : { binary, env: npmManagedEnv(packageRoot) };
}
