/**
 * A process that exits while a child it spawned runs (a library caller's `process.exit()` or uncaught exception
 * mid-turn) takes the child with it: `spawnChild` SIGKILLs it (its process group on POSIX) on `exit`, where the
 * child would otherwise run on (a sleeper that ignores SIGTERM and stdin EOF, as `claude -p` finishes its turn).
 * On Linux the descendants that left the child's group go too (found by parent link and by the tree marker), as
 * an agent's commands run in groups of their own.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { killHeldTree } from "../../src/internal/test-hooks.js";
import { isAlive } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";

const fixture = (name: string): string =>
  fileURLToPath(new URL(path.posix.join("../fixtures/process", name), import.meta.url));
const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

/** Runs `script` to its end and returns the pids it reported (the processes it left running when it exited). */
async function pidsLeftBy(script: string, how: "exit" | "throw"): Promise<Record<string, number>> {
  const loader = pathToFileURL(fixture("ts-loader.mjs")).href;
  const parent = spawn(process.execPath, ["--import", loader, fixture(script), how], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  let out = "";
  parent.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => parent.once("exit", resolve));
  const pids = JSON.parse(out.trim()) as Record<string, number>;
  started.push(...Object.values(pids));
  expect(code).toBe(how === "exit" ? 0 : 1);
  return pids;
}

async function childLeftBy(how: "exit" | "throw"): Promise<number> {
  const { child } = await pidsLeftBy("exits-mid-child.js", how);
  if (child === undefined) throw new Error("the fixture reported no child");
  return child;
}

describe.runIf(process.platform !== "win32")("a process that exits while its child runs", () => {
  for (const how of ["exit", "throw"] as const) {
    it(`ends the child it spawned (${how === "exit" ? "process.exit()" : "an uncaught exception"})`, async () => {
      const child = await childLeftBy(how);
      // killed as the parent exited; give the kernel a moment to reap it
      await waitFor(() => !isAlive(child), "the child to be gone", 5_000);
      expect(isAlive(child)).toBe(false);
    });
  }
});

describe.runIf(process.platform === "linux")("a process that exits while its child's daemon runs", () => {
  for (const how of ["exit", "throw"] as const) {
    it(`ends a daemon the child double-forked out of its group (${how})`, async () => {
      // the daemon is in a session of its own, reparented to init: only the tree marker leads to it
      const { child, daemon } = await pidsLeftBy("exits-mid-daemon.js", how);
      if (child === undefined || daemon === undefined) throw new Error("the fixture reported no pids");
      await waitFor(() => !isAlive(child), "the child to be gone", 5_000);
      await waitFor(() => !isAlive(daemon), "the daemon to be gone", 2_000).catch(() => undefined);
      expect(isAlive(daemon)).toBe(false);
    });
  }
});

describe("killHeldTree on Windows (platform injected)", () => {
  it("ends the held child's whole tree with taskkill /T /F, not the child alone", () => {
    // the child of a .cmd launch is cmd.exe: a signal to it would leave the node and the agent it started running
    const runs: Array<[string, readonly string[]]> = [];
    killHeldTree(4321, false, "win32", (command, args) => runs.push([command, args]));
    expect(runs).toHaveLength(1);
    expect(runs[0]?.[0]).toMatch(/\\System32\\taskkill\.exe$/);
    expect(runs[0]?.[1]).toEqual(["/PID", "4321", "/T", "/F"]);
  });

  it("never throws from the exit listener when taskkill fails", () => {
    expect(() =>
      killHeldTree(4321, false, "win32", () => {
        throw new Error("spawnSync taskkill ENOENT");
      }),
    ).not.toThrow();
  });
});
