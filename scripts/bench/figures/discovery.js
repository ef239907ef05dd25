// A session with discovery when the user's login shell is slow: a throw-away HOME whose ~/.bash_profile sleeps
// 1.5 s and puts codex on PATH; the process PATH has no codex and RENNET_CODEX_BIN is unset, so codex is found
// only through the login-shell PATH. The first (cold) session fills the probe cache; the figure is a warm
// session against the same turn with an explicit --codex-bin.
import { existsSync } from "node:fs";
import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { figure, goal } from "../figure.js";
import { startRealTurnEnv, TURN_PROMPT } from "../real-turn-env.js";
import { rennetRunArgs, rennetTurnMs } from "./clients.js";

const SHELL = "/bin/bash";
const RC_SLEEP_S = 1.5;

function hasCodex(dir) {
  return ["codex", "codex.cmd", "codex.exe"].some((name) => existsSync(path.join(dir, name)));
}

/** The inherited PATH without any directory holding a codex, with this node first (via a private symlink). */
async function pathWithoutCodex(dir) {
  const nodeDir = path.join(dir, "node-only");
  await mkdir(nodeDir);
  await symlink(process.execPath, path.join(nodeDir, "node"));
  const kept = (process.env.PATH ?? "").split(path.delimiter).filter((d) => d !== "" && !hasCodex(d));
  return [nodeDir, ...kept].join(path.delimiter);
}

export async function discoveryWithSlowShell(ctx) {
  if (process.platform === "win32" || !existsSync(SHELL)) throw new Error(`needs ${SHELL}`);
  const real = await startRealTurnEnv();
  try {
    const toolDir = path.join(real.userHome, "tools", "bin");
    await mkdir(toolDir, { recursive: true });
    const codex = path.join(toolDir, "codex");
    await symlink(await realpath(ctx.codexBin), codex);
    await writeFile(
      path.join(real.userHome, ".bash_profile"),
      `sleep ${RC_SLEEP_S}\nexport PATH="$HOME/tools/bin:$PATH"\n`,
    );
    const env = { ...real.env, SHELL, PATH: await pathWithoutCodex(await real.tempDir("path")) };
    const discovered = rennetRunArgs(ctx.root, TURN_PROMPT);
    const explicit = rennetRunArgs(ctx.root, TURN_PROMPT, codex);
    const cold = await rennetTurnMs(ctx, discovered, env, real.cwd);
    const samples = await ctx.interleave(ctx.rounds(7, 3), {
      discovered: () => rennetTurnMs(ctx, discovered, env, real.cwd),
      explicit: () => rennetTurnMs(ctx, explicit, env, real.cwd),
    });
    return [
      figure({
        key: "discovery.slowShellWarm",
        label: `warm discovery session, login shell sleeps ${RC_SLEEP_S} s`,
        unit: "ms",
        samples: samples.discovered,
        baselineLabel: "same turn with --codex-bin",
        baselineSamples: samples.explicit,
        goal: goal("ratio", 1.3),
      }),
      figure({
        key: "discovery.slowShellCold",
        label: "cold (first) discovery session, same slow shell",
        unit: "ms",
        samples: [cold],
        baselineLabel: "same turn with --codex-bin",
        baselineSamples: samples.explicit,
        notes: "for information: one run, it fills the probe cache",
      }),
    ];
  } finally {
    await real.cleanup();
  }
}
