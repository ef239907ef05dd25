// Start-up cost: `node bin/rennet.js --help` and `import()` of the package entry (dist/index.js), each over a
// bare `node -e 0` measured in the same rounds.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { figure, goal } from "../figure.js";
import { cleanBaseEnv } from "../real-turn-env.js";
import { nodeRunMs } from "./clients.js";

async function overBareNode(ctx, args) {
  const env = cleanBaseEnv();
  return ctx.interleave(ctx.rounds(15, 5), {
    measured: () => nodeRunMs(ctx, args, env, ctx.root),
    bare: () => nodeRunMs(ctx, ["-e", "0"], env, ctx.root),
  });
}

export async function helpStartup(ctx) {
  const samples = await overBareNode(ctx, [path.join(ctx.root, "bin", "rennet.js"), "--help"]);
  return [
    figure({
      key: "startup.help",
      label: "node bin/rennet.js --help",
      unit: "ms",
      samples: samples.measured,
      baselineLabel: "node -e 0",
      baselineSamples: samples.bare,
      goal: goal("delta", 120),
    }),
  ];
}

export async function importStartup(ctx) {
  const entry = pathToFileURL(path.join(ctx.root, "dist", "index.js")).href;
  const samples = await overBareNode(ctx, [
    "--input-type=module",
    "-e",
    `await import(${JSON.stringify(entry)})`,
  ]);
  return [
    figure({
      key: "startup.import",
      label: 'import("rennet-adapters") (dist/index.js)',
      unit: "ms",
      samples: samples.measured,
      baselineLabel: "node -e 0",
      baselineSamples: samples.bare,
      goal: goal("delta", 60),
    }),
  ];
}
