// Start-up cost: `node bin/rennet.js --help` and `import("rennet-adapters")` (the entry its export conditions
// give this Node), each over a bare `node -e 0` measured in the same rounds.
import path from "node:path";
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
  // by the package's name, from its root (a self-reference): the entry a consumer's import resolves to
  const samples = await overBareNode(ctx, ["--input-type=module", "-e", 'await import("rennet-adapters")']);
  return [
    figure({
      key: "startup.import",
      label: 'import("rennet-adapters")',
      unit: "ms",
      samples: samples.measured,
      baselineLabel: "node -e 0",
      baselineSamples: samples.bare,
      goal: goal("delta", 60),
    }),
  ];
}
