import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseForkCount, pidWindow, type PidWindowInput } from "../../src/process/pid-window.js";

const input = (over: Partial<PidWindowInput> = {}): PidWindowInput => ({
  rootPid: 1000,
  baseline: { forks: 50_000 },
  forks: 50_010,
  pidMax: 32_768,
  lastPid: 1010,
  ...over,
});

describe("pidWindow", () => {
  it("accepts the pids handed out after the root, up to the last one, and nothing older", () => {
    const newer = pidWindow(input())!;
    expect([1001, 1005, 1010].map(newer)).toEqual([true, true, true]);
    expect([1, 999, 1000, 1011, 32_767].map(newer)).toEqual([false, false, false, false, false]);
  });

  it("follows the counter round the end of the cycle when it wrapped after the root", () => {
    const newer = pidWindow(input({ rootPid: 32_700, lastPid: 400, forks: 50_500 }))!;
    expect([32_701, 32_767, 300, 400].map(newer)).toEqual([true, true, true, true]);
    expect([401, 1000, 32_700].map(newer)).toEqual([false, false, false]);
  });

  it("reads everything once enough forks happened that the counter may have gone round (half a cycle)", () => {
    // the cycle after a wrap is pid_max - 300 (Linux's RESERVED_PIDS): 32_468 pids, half of it 16_234
    expect(pidWindow(input({ forks: 50_000 + 16_233 }))).not.toBeNull();
    expect(pidWindow(input({ forks: 50_000 + 16_234 }))).toBeNull();
    // a tiny pid_max (the kernel's minimum is 301): 100 forks may lap a 100-pid cycle
    expect(pidWindow(input({ pidMax: 400, rootPid: 301, lastPid: 302, forks: 50_100 }))).toBeNull();
    expect(pidWindow(input({ pidMax: 300, rootPid: 200, lastPid: 250, forks: 50_001 }))).toBeNull();
  });

  it("without the last pid, bounds the window only while the counter cannot have reached pid_max", () => {
    const newer = pidWindow(input({ lastPid: null }))!;
    expect([1001, 30_000].map(newer)).toEqual([true, true]);
    expect(newer(999)).toBe(false);
    expect(pidWindow(input({ lastPid: null, rootPid: 32_000, forks: 50_400 }))).toBeNull();
  });

  it("reads everything when the allocator could not be read or makes no sense", () => {
    for (const over of [
      { forks: null },
      { pidMax: null },
      { forks: 49_999 }, // fewer forks than at the spawn: not the same counter
      { rootPid: 0 },
      { pidMax: 0 },
    ]) {
      expect(pidWindow(input(over))).toBeNull();
    }
    // an unusable last pid falls back to the bound without it
    expect(pidWindow(input({ lastPid: 40_000 }))?.(30_000)).toBe(true);
  });

  it("never rejects a pid handed out after the root, wherever the counter stood (simulated allocator)", () => {
    let bounded = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 400, max: 70_000 }),
        fc.integer({ min: 301, max: 69_999 }),
        fc.integer({ min: 0, max: 40_000 }),
        (pidMax, start, forks) => {
          fc.pre(start < pidMax);
          // a cyclic allocator: the root takes `start`, then `forks` more pids (wrapping to 300 at pid_max)
          const handedOut = new Int32Array(forks);
          let last = start;
          for (let i = 0; i < forks; i++) {
            last = last + 1 >= pidMax ? 300 : last + 1;
            handedOut[i] = last;
          }
          const state = { rootPid: start, baseline: { forks: 7 }, forks: 7 + forks, pidMax };
          // with and without the last pid handed out (ns_last_pid may be unreadable)
          return [last, null].every((lastPid) => {
            const newer = pidWindow({ ...state, lastPid });
            if (newer === null) return true;
            bounded++;
            return handedOut.every((pid) => newer(pid));
          });
        },
      ),
      { numRuns: 300 },
    );
    // most runs exercised a window rather than the read-everything answer
    expect(bounded).toBeGreaterThan(200);
  });
});

describe("parseForkCount", () => {
  it("reads the processes line of /proc/stat", () => {
    expect(
      parseForkCount("cpu  1 2 3\nintr 5 6\nctxt 99\nbtime 1\nprocesses 1736436\nprocs_running 2\n"),
    ).toBe(1_736_436);
    expect(parseForkCount("cpu 1\nprocs_running 2\n")).toBeNull();
    expect(parseForkCount("processes lots\n")).toBeNull();
  });
});
