import { expect } from "vitest";
import {
  describeProcess,
  killLeftovers,
  MARK_VAR,
  newMarker,
  processesWithMarker,
  stillAlive,
} from "./processes.js";

/**
 * The processes one test answers for: the pids it learned and the markers it handed out (every descendant of a
 * child started with {@link ProcessLedger.markedEnv} carries its marker). A test asserts that none survives; its
 * `afterEach` kills what a failed test left behind.
 */
export class ProcessLedger {
  readonly pids = new Set<number>();
  readonly #markers: string[] = [];

  /** A new marker, remembered for {@link expectNoneSurvive} and {@link killAll}. */
  newMarker(): string {
    const marker = newMarker();
    this.#markers.push(marker);
    return marker;
  }

  /** `base` with a new marker in `MARK_VAR`. */
  markedEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    return { ...base, [MARK_VAR]: this.newMarker() };
  }

  /** Asserts that no learned pid runs and no process carries a marker handed out. */
  expectNoneSurvive(): void {
    expect(stillAlive(this.pids).map(describeProcess), "pids the test collected").toEqual([]);
    for (const marker of this.#markers)
      expect(processesWithMarker(marker).map(describeProcess), "processes carrying the marker").toEqual([]);
  }

  /** SIGKILLs every learned pid and every process carrying a marker handed out, and forgets them all. */
  killAll(): void {
    killLeftovers([
      ...this.pids,
      ...this.#markers.splice(0).flatMap((marker) => processesWithMarker(marker)),
    ]);
    this.pids.clear();
  }
}
