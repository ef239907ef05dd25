import { expect } from "vitest";

/** What `run` throws; fails the test when it returns instead (so no assertion can hide inside a `catch`). */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return expect.unreachable("expected a throw, but it returned");
}
