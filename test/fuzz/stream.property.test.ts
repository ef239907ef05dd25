/**
 * Property-based fuzzing of the whole session through the public API and the real JSONL framing, against the
 * in-memory fake app-server: random frames (owned, foreign, unknown, server requests of every kind, stray and
 * duplicate responses, malformed, oversized, deeply nested and split lines, invalid UTF-8, early completion),
 * exits at random points and random aborts. Each property runs the same scenarios (same seed).
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { FUZZ_SEED, fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzz-config.js";
import { scenarioArbitrary } from "./stream-arbitraries.js";
import {
  accountingViolations,
  lifecycleViolations,
  outcomeViolations,
  toolPairingViolations,
} from "./stream-invariants.js";
import type { Scenario } from "./stream-model.js";
import { expectationOf, type Expectation } from "./stream-oracle.js";
import { runScenario, type RunRecord } from "./stream-run.js";

const RUNS = fuzzRuns(150);
const MS_PER_RUN = 40;

console.log(`[fuzz] stream.property seed ${FUZZ_SEED} (replay: FUZZ_SEED=${FUZZ_SEED})`);

function property(check: (s: Scenario, r: RunRecord, x: Expectation) => string[]) {
  return fc.asyncProperty(scenarioArbitrary(), async (scenario) => {
    const record = await runScenario(scenario);
    const violations = check(scenario, record, expectationOf(scenario));
    if (violations.length > 0) throw new Error(violations.join("\n"));
  });
}

describe("random app-server streams (in memory, real framing)", () => {
  it(
    "every session settles with exactly one terminal, last, seq 1..n, and the fake has exited",
    async () => {
      await fc.assert(
        property((s, r) => lifecycleViolations(s, r)),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, MS_PER_RUN),
  );

  it(
    "the outcome, final message, usage and turn ids follow the owned frames; foreign frames change nothing",
    async () => {
      await fc.assert(
        property((s, r, x) => outcomeViolations(s, r, x)),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, MS_PER_RUN),
  );

  it(
    "no frame is dropped and every server request is answered exactly once",
    async () => {
      await fc.assert(
        property((_s, r, x) => accountingViolations(r, x)),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, MS_PER_RUN),
  );

  it(
    "every tool.started has a tool.completed before the terminal",
    async () => {
      await fc.assert(
        property((_s, r) => toolPairingViolations(r)),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, MS_PER_RUN),
  );
});
