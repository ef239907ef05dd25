/** The duration limit's timer counted from the session's start, also when it is armed later. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TurnLimit } from "../../src/harness/events.js";
import { TurnLimiter } from "../../src/session/limit-watch.js";
import { TimerSet } from "../../src/session/timer-set.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("TurnLimiter.start", () => {
  it("armed 40 ms after the session began, stops it at 100 ms from the beginning, not 140", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const stops: TurnLimit[] = [];
    const limiter = new TurnLimiter({ maxDurationMs: 100 }, (limit) => (stops.push(limit), true));
    const startedAt = performance.now();
    vi.advanceTimersByTime(40);
    const timers = new TimerSet();
    limiter.start(timers, startedAt);
    vi.advanceTimersByTime(59);
    expect(stops).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(stops).toEqual([{ name: "maxDurationMs", value: 100, reached: 100 }]);
    expect(limiter.hit).toEqual(stops[0]);
    timers.close();
  });

  it("armed after the limit passed, stops the session at once with the time it really ran", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const stops: TurnLimit[] = [];
    const limiter = new TurnLimiter({ maxDurationMs: 100 }, (limit) => (stops.push(limit), true));
    const startedAt = performance.now();
    vi.advanceTimersByTime(130);
    const timers = new TimerSet();
    limiter.start(timers, startedAt);
    vi.advanceTimersByTime(0);
    expect(stops).toEqual([{ name: "maxDurationMs", value: 100, reached: 130 }]);
    timers.close();
  });

  it("without maxDurationMs sets no timer", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const limiter = new TurnLimiter({ maxToolCalls: 1 }, () => true);
    limiter.start(new TimerSet());
    expect(vi.getTimerCount()).toBe(0);
  });
});
