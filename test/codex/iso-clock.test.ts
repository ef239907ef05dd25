import { afterEach, describe, expect, it, vi } from "vitest";
import { isoClock } from "../../src/session/iso-clock.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("isoClock", () => {
  it("reads the time once per synchronous burst and again after a microtask", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-04T10:00:00.000Z"));
    const clock = isoClock();
    const first = clock();
    vi.setSystemTime(new Date("2026-12-04T10:00:00.005Z"));
    // same burst: the string read at its start
    expect(clock()).toBe(first);
    expect(first).toBe("2026-12-04T10:00:00.000Z");
    await Promise.resolve();
    expect(clock()).toBe("2026-12-04T10:00:00.005Z");
  });

  it("formats every call of an injected clock", () => {
    let ms = Date.parse("2026-12-04T10:00:00.000Z");
    const clock = isoClock(() => new Date(ms++));
    expect([clock(), clock()]).toEqual(["2026-12-04T10:00:00.000Z", "2026-12-04T10:00:00.001Z"]);
  });
});
