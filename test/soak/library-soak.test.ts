/**
 * Many sessions in one process through the public client (`createCodex().runStreamed`) against the in-memory
 * fake app-server: what a session takes (listeners on the process and on the caller's signal, timers, handles,
 * file descriptors) is given back, and Node warns about nothing. Leak-freeness only: no timings, no RSS (the
 * figures are in `npm run bench`, group `soak`).
 */
import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { HarnessSession } from "../../src/harness/session.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import {
  abortListenerCount,
  countResources,
  growthAfterSettling,
  recordWarnings,
} from "../helpers/leak-probe.js";

const SEQUENTIAL = 100;
const CONCURRENT = 20;

async function drain(session: HarnessSession): Promise<string> {
  let terminals = 0;
  for await (const event of session.events) if (event.type === "terminal") terminals++;
  const terminal = await session.result;
  if (terminals !== 1) throw new Error(`${terminals} terminal events`);
  return terminal.outcome;
}

describe("many library sessions in one process (in-memory fake)", () => {
  it(`${SEQUENTIAL} sequential and ${CONCURRENT} concurrent sessions leave nothing behind and warn about nothing`, async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("soak") });
    const codex = createCodex({
      launcher: fake.launcher,
      codex: "/opt/codex/bin/codex",
      env: { PATH: "/bin" },
    });
    // one application-wide signal passed to every call, as an app wires its shutdown
    const shutdown = new AbortController();
    const one = (): Promise<string> =>
      drain(codex.runStreamed({ prompt: "soak", cwd: "/tmp", signal: shutdown.signal }));
    expect(await one()).toBe("completed"); // warm-up: module loading and first-use allocations
    const warnings = recordWarnings();
    const baseline = countResources();

    for (let i = 0; i < SEQUENTIAL; i++) expect(await one()).toBe("completed");
    expect(abortListenerCount(shutdown.signal)).toBe(0);

    const batch = Array.from({ length: CONCURRENT }, one);
    expect(abortListenerCount(shutdown.signal)).toBeLessThanOrEqual(1); // not one per session
    expect(await Promise.all(batch)).toEqual(Array(CONCURRENT).fill("completed"));
    expect(abortListenerCount(shutdown.signal)).toBe(0);

    expect(await growthAfterSettling(baseline)).toEqual([]);
    expect((await warnings.stop()).map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  });

  it(`one shared signal cancels ${CONCURRENT} concurrent sessions, each with one cancelled terminal`, async () => {
    const fake = new InMemoryAppServer({ turn: [fakeSteps.turnStarted(), { delayMs: 600_000 }] });
    const codex = createCodex({
      launcher: fake.launcher,
      codex: "/opt/codex/bin/codex",
      env: { PATH: "/bin" },
    });
    const shutdown = new AbortController();
    const warnings = recordWarnings();
    const baseline = countResources();
    const sessions = Array.from({ length: CONCURRENT }, () =>
      codex.runStreamed({ prompt: "soak", cwd: "/tmp", signal: shutdown.signal }),
    );
    const started: Promise<void>[] = [];
    const drained = sessions.map((session) => {
      let onStarted!: () => void;
      started.push(new Promise((resolve) => (onStarted = resolve)));
      return (async () => {
        let terminals = 0;
        for await (const event of session.events) {
          if (event.type === "turn.started") onStarted();
          if (event.type === "terminal") terminals++;
        }
        return terminals;
      })();
    });
    // every turn has started before the signal fires: each gets its own turn/interrupt
    await Promise.all(started);
    expect(abortListenerCount(shutdown.signal)).toBeLessThanOrEqual(1);
    shutdown.abort(new Error("shutting down"));
    expect(await Promise.all(drained)).toEqual(Array(CONCURRENT).fill(1));
    const terminals = await Promise.all(sessions.map((session) => session.result));
    expect(terminals.map((t) => t.outcome)).toEqual(Array(CONCURRENT).fill("cancelled"));
    expect(terminals.map((t) => t.cancellation?.via)).toEqual(Array(CONCURRENT).fill("interrupted"));
    expect(abortListenerCount(shutdown.signal)).toBe(0);
    expect(await growthAfterSettling(baseline)).toEqual([]);
    expect((await warnings.stop()).map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  });
});
