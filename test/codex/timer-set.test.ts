import { describe, expect, it } from "vitest";
import { TimerSet } from "../../src/session/timer-set.js";

describe("TimerSet", () => {
  it("runs a timer once, and close() clears the pending ones", async () => {
    const timers = new TimerSet();
    const ran: string[] = [];
    timers.set(1, () => ran.push("soon"));
    timers.set(60_000, () => ran.push("late"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toEqual(["soon"]);
    const before = process.getActiveResourcesInfo().filter((type) => type === "Timeout").length;
    timers.close();
    const after = process.getActiveResourcesInfo().filter((type) => type === "Timeout").length;
    expect(after).toBe(before - 1);
  });

  it("refuses timers once closed: nothing is scheduled after its owner ended", () => {
    const timers = new TimerSet();
    timers.close();
    const before = process.getActiveResourcesInfo().length;
    timers.set(60_000, () => {
      throw new Error("must not run");
    });
    expect(process.getActiveResourcesInfo().length).toBe(before);
  });
});
