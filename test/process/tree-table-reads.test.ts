import { spawn } from "node:child_process";
import type * as Fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";

// every file the process-table module reads, in order
const reads = vi.hoisted((): string[] => []);
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const readFileSync = ((...args: Parameters<typeof fs.readFileSync>) => {
    reads.push(String(args[0]));
    return fs.readFileSync(...args);
  }) as typeof fs.readFileSync;
  return { ...fs, readFileSync, default: { ...fs, readFileSync } };
});

const { createStdioLauncher } = await import("../../src/process/stdio-launcher.js");
const { readPidBaseline, readProcessTable } = await import("../../src/process/process-table.js");
const { cleanUpAfterEach, firstFrame, fixture, pidOf } = await import("./process-test-helpers.js");
const { isAlive } = await import("../helpers/processes.js");
const { waitFor } = await import("../helpers/wait.js");

const { started } = cleanUpAfterEach();
afterEach(() => {
  reads.length = 0;
});

/** The pids whose `/proc/<pid>/<file>` was read. */
function pidsRead(file: "stat" | "environ"): Set<number> {
  const pattern = new RegExp(`^/proc/(\\d+)/${file}$`);
  return new Set(reads.flatMap((name) => pattern.exec(name)?.[1] ?? []).map(Number));
}

describe.runIf(process.platform === "linux")("table reads scoped to one tree (Linux)", () => {
  it("reads the root and newer processes, and none of the processes that were running before it", async () => {
    const baseline = readPidBaseline();
    expect(baseline?.forks).toBeGreaterThan(0);
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("spawn", resolve));
    const root = child.pid as number;
    started.add(root);
    const full = await readProcessTable("proc");
    reads.length = 0;
    const scoped = await readProcessTable("proc", { rootPid: root, baseline: baseline! });
    expect(scoped.map((row) => row.pid)).toContain(root);
    // this process and its parent started before the root: listed by a full read, not read at all by this one
    for (const older of [process.pid, process.ppid]) {
      expect(full.map((row) => row.pid)).toContain(older);
      expect(scoped.map((row) => row.pid)).not.toContain(older);
      expect(pidsRead("stat")).not.toContain(older);
    }
    expect(scoped.length).toBeLessThan(full.length);
    // pids asked for by name are read whatever their age
    const named = await readProcessTable("proc", {
      rootPid: root,
      baseline: baseline!,
      include: [process.pid],
    });
    expect(named.map((row) => row.pid)).toContain(process.pid);
    // a baseline so old that the pid counter may have gone round: every process is read (4194304 is the largest
    // pid_max Linux allows; a baseline of 0 is not enough on a machine that booted less than half a lap ago)
    const lapped = await readProcessTable("proc", {
      rootPid: root,
      baseline: { forks: baseline!.forks - 4_194_304 },
    });
    expect(lapped.map((row) => row.pid)).toContain(process.pid);
  });

  it("a tree's walks and its teardown read no older process, and still end a double-forked daemon", async () => {
    const launch = createStdioLauncher({ registryDir: null, trackIntervalMs: 20 });
    const server = launch({ command: process.execPath, args: [fixture("double-forker.js")] });
    const frame = await firstFrame(server.transport, () => server.stderrTail());
    const daemon = pidOf(frame, "daemon");
    started.add(daemon);
    // let the periodic walk run a few times
    await new Promise((resolve) => setTimeout(resolve, 100));
    const result = await server.terminateWithResult();
    expect(result.survivors).toEqual([]);
    await waitFor(() => !isAlive(daemon), "the double-forked daemon to end");
    const statted = pidsRead("stat");
    expect(statted).toContain(server.pid);
    expect(pidsRead("environ")).toContain(daemon);
    for (const older of [process.pid, process.ppid]) {
      expect(statted).not.toContain(older);
      expect(pidsRead("environ")).not.toContain(older);
    }
  });
});
