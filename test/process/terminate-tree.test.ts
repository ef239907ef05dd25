import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { StreamTransport } from "../../src/jsonl/stream-transport.js";
import { getProcessStartTime } from "../../src/process/process-table.js";
import { killProcessTrees } from "../../src/process/terminate-tree.js";
import { firstFrame, fixture, pidOf } from "./process-test-helpers.js";
import { isAlive, killLeftovers } from "../helpers/processes.js";
import { buildTaskkillCommand } from "../../src/internal/test-hooks.js";

describe("buildTaskkillCommand", () => {
  it("force-kills the whole tree of one pid", () => {
    expect(buildTaskkillCommand(4321, { SystemRoot: "C:\\Windows" })).toEqual({
      command: "C:\\Windows\\System32\\taskkill.exe",
      args: ["/PID", "4321", "/T", "/F"],
    });
  });

  it("names taskkill.exe by its system path: Windows looks a bare name up in the current directory first", () => {
    // the current directory is often the repository a turn ran in, whose own taskkill.exe would run instead
    expect(buildTaskkillCommand(7, { systemroot: "D:\\WINNT" }).command).toBe(
      "D:\\WINNT\\System32\\taskkill.exe",
    );
    expect(buildTaskkillCommand(7, {}).command).toBe("C:\\Windows\\System32\\taskkill.exe");
  });

  it("refuses a pid that would widen the kill", () => {
    for (const pid of [0, -1, 1.5, Number.NaN])
      expect(() => buildTaskkillCommand(pid)).toThrow(expect.objectContaining({ code: "INTERNAL_ERROR" }));
  });
});

const started = new Set<number>();
afterEach(() => {
  killLeftovers(started);
  started.clear();
});

describe.runIf(process.platform === "linux")("killProcessTrees", () => {
  it("kills a verified root with its descendants, and never a pid whose start time differs", async () => {
    const child = spawn(process.execPath, [fixture("forking-sleeper.js")], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    const pid = child.pid ?? 0;
    started.add(pid);
    const frame = await firstFrame(new StreamTransport(child.stdout, new PassThrough()));
    const grandchild = pidOf(frame, "grandchild");
    started.add(grandchild);
    const startTime = await getProcessStartTime(pid);
    if (startTime === null) throw new Error("no start time");

    const wrong = await killProcessTrees([{ pid, startTime: `${startTime}1` }]);
    expect(wrong).toEqual({ killed: [], survivors: [], spared: [] });
    expect(isAlive(pid) && isAlive(grandchild)).toBe(true);

    const right = await killProcessTrees([{ pid, startTime }]);
    expect(right.survivors).toEqual([]);
    expect(new Set(right.killed)).toEqual(new Set([pid, grandchild]));
    expect([pid, grandchild].filter(isAlive)).toEqual([]);
  });
});
