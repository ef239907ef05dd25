// The real turn on a machine that runs many processes (a developer's desktop runs hundreds): Rennet against the
// raw client on the native binary, both with IDLE_PROCESSES extra idle processes running. What Rennet reads of
// the process table around a session must not grow with the machine's process count; compare the ratio with
// `turn.vsRawNativeClient` (same clients, quiet machine).
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { figure } from "../figure.js";
import { npmNativeBehind } from "./clients.js";
import { rawClientOnNative, rennetVersus } from "./turn.js";

const IDLE_PROCESSES = 600;

/** The number of processes the system lists (Linux), else null. */
function processCount() {
  try {
    return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length;
  } catch {
    return null;
  }
}

/** Starts `count` idle `sleep` processes in one process group; `stop()` kills the group. */
async function startIdleProcesses(count) {
  const group = spawn(
    "sh",
    ["-c", `i=0; while [ $i -lt ${count} ]; do sleep 3600 & i=$((i+1)); done; echo up; wait`],
    {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  await new Promise((resolve, reject) => {
    group.once("error", reject);
    group.stdout.once("data", resolve);
  });
  const exited = new Promise((resolve) => group.once("exit", resolve));
  return {
    async stop() {
      try {
        process.kill(-group.pid, "SIGKILL");
      } catch {
        // already gone
      }
      await exited;
    },
  };
}

export async function turnOnBusyMachine(ctx) {
  if (process.platform === "win32") throw new Error("the busy-machine figure needs a POSIX shell");
  const raw = rawClientOnNative(ctx, npmNativeBehind(ctx.codexBin));
  const quietCount = processCount();
  const idle = await startIdleProcesses(IDLE_PROCESSES);
  try {
    const busyCount = processCount();
    const samples = await rennetVersus(ctx, raw);
    return [
      figure({
        key: "busy.vsRawNativeClient",
        label: `real turn with ${IDLE_PROCESSES} more processes running: rennet vs raw client, native binary`,
        unit: "ms",
        samples: samples.rennet,
        baselineLabel: "raw client, same machine",
        baselineSamples: samples.baseline,
        goal: null,
        extra: { processesBefore: quietCount, processesDuring: busyCount },
      }),
    ];
  } finally {
    await idle.stop();
  }
}
