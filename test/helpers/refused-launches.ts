import { realpath } from "node:fs/promises";
import { afterEach, beforeEach } from "vitest";
import type { LaunchSpec, Launcher } from "../../src/process/stdio-child.js";
import { makeTempDir } from "./temp.js";

/** What {@link refusedLaunchesPerTest} gives each test. */
export interface RefusedLaunches {
  /** A fresh directory of the current test (its real path), removed after it. */
  root(): string;
  /** Every launch the current test asked for. */
  launched(): LaunchSpec[];
  /** Records a launch and fails it: an option check that lets a bad input through is seen in `launched()`. */
  launcher: Launcher;
}

/**
 * For tests of an entry point's option checks, which must refuse before anything starts: per test, a temp
 * directory (`rennet-<prefix>-…`) and a launcher that records and refuses every launch. Call at file level.
 */
export function refusedLaunchesPerTest(prefix: string): RefusedLaunches {
  let root = "";
  let launched: LaunchSpec[] = [];
  let remove: () => Promise<void> = async () => {};
  beforeEach(async () => {
    const made = await makeTempDir(prefix);
    remove = made.remove;
    root = await realpath(made.dir);
    launched = [];
  });
  afterEach(() => remove());
  return {
    root: () => root,
    launched: () => launched,
    launcher: (spec) => {
      launched.push(spec);
      throw new Error("launched");
    },
  };
}
