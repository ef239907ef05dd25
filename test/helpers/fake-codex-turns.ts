/** Fake app-server turns more than one codex test plays. */
import { fakeSteps, type FakeStep } from "../../src/testkit/fake-script.js";

/**
 * A turn that starts a command (`c1`, `ls`) and then waits a minute: with `limits: { maxToolCalls: 0 }` the
 * limit stops it at that command's `tool.started`, so what the fake sends `onInterrupt` arrives while the turn
 * is being cancelled.
 */
export function commandStartedThenWaiting(): FakeStep[] {
  return [
    fakeSteps.turnStarted(),
    fakeSteps.item("started", { type: "commandExecution", id: "c1", command: "ls", status: "inProgress" }),
    { delayMs: 60_000 },
  ];
}
