/**
 * The same random streams, fewer of them, from the executable fake app-server as a real child process (real
 * pipes chunk the bytes their own way): every session settles with one terminal, the outcome follows the peer,
 * and no process is left running. Needs `npm run build` (`npm test` and `npm run fuzz` build first).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { DEFAULT_MAX_LINE_BYTES } from "../../src/jsonl/line-decoder.js";
import { FUZZ_SEED, fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzz-config.js";
import { scenarioArbitrary } from "./stream-arbitraries.js";
import { accountingViolations, lifecycleViolations, outcomeViolations } from "./stream-invariants.js";
import { expectationOf } from "./stream-oracle.js";
import { runScenario } from "./stream-run.js";

const FAKE_BIN = fileURLToPath(new URL("../../dist/testkit/fake-app-server-bin.js", import.meta.url));
/** A real child per case: a tenth of FUZZ_RUNS. */
const RUNS = fuzzRuns(15, 10);
const MS_PER_RUN = 400;

console.log(`[fuzz] process.property seed ${FUZZ_SEED} (replay: FUZZ_SEED=${FUZZ_SEED})`);

beforeAll(() => {
  if (!existsSync(FAKE_BIN))
    throw new Error(`${FAKE_BIN} is missing: run \`npm run build\` first (\`npm test\` does)`);
});

describe("random app-server streams (executable fake, real child process)", () => {
  it(
    "every session settles with one terminal following the peer, and no process is left running",
    async () => {
      const scenarios = scenarioArbitrary({
        maxLineBytes: DEFAULT_MAX_LINE_BYTES,
        maxTurnLines: 8,
        unansweredRequests: false,
      });
      await fc.assert(
        fc.asyncProperty(scenarios, async (scenario) => {
          const record = await runScenario(scenario, FAKE_BIN);
          const expectation = expectationOf(scenario, DEFAULT_MAX_LINE_BYTES);
          const violations = [
            ...lifecycleViolations(scenario, record),
            ...outcomeViolations(scenario, record, expectation),
            ...accountingViolations(record, expectation),
          ];
          if (violations.length > 0) throw new Error(violations.join("\n"));
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, MS_PER_RUN),
  );
});
