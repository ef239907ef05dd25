import { spawn } from "node:child_process";
import type * as ChildProcessModule from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it, vi } from "vitest";

// every `ps` run of the process-table module
const psRuns = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:child_process", async (importOriginal) => {
  const real = await importOriginal<typeof ChildProcessModule>();
  const execFile = ((...args: Parameters<typeof real.execFile>) => {
    if (args[0] === "/bin/ps") psRuns.count++;
    return real.execFile(...args);
  }) as typeof real.execFile;
  return { ...real, execFile, default: { ...real, execFile } };
});

const { terminateProcessTree } = await import("../../src/process/terminate-tree.js");
const { cleanUpAfterEach, fixture } = await import("./process-test-helpers.js");
const { isAlive } = await import("../helpers/processes.js");
const { makeTempDir } = await import("../helpers/temp.js");

const { started } = cleanUpAfterEach();
afterEach(() => {
  psRuns.count = 0;
});

/** Spawns a fixture as Rennet does (own session and group, piped stdin); resolves with its first stdout line. */
async function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ["pipe", "pipe", "ignore"],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  // a line on stdin: echo-until-eof answers it, tree-parent prints its pids anyway
  child.stdin.write('{"hello":1}\n');
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout }).once("line", resolve),
  );
  started.add(child.pid as number);
  const root = { pid: child.pid as number, isRunning: () => running, exited, groupLeader: true };
  return { root, line, closeStdin: () => child.stdin.destroy() };
}

// `ps` is the table source of macOS and the BSDs; Linux has it too, so the same code runs here as there
describe.runIf(process.platform === "linux")("terminateProcessTree where the table is read with ps", () => {
  it("runs ps once, for the snapshot, when the child exits on stdin EOF and leaves nothing", async () => {
    const { root, closeStdin } = await start([fixture("echo-until-eof.js")]);
    const result = await terminateProcessTree({ root, closeStdin, platform: "darwin" });
    expect(result).toEqual({ endedBy: "stdin-eof", survivors: [] });
    expect(psRuns.count).toBe(1);
  });

  it("reads the table again while an earlier member still runs, and ends the orphans", async () => {
    const { root, line, closeStdin } = await start([fixture("tree-parent.js"), "--on-eof=exit"]);
    const { child, grandchild } = JSON.parse(line) as { child: number; grandchild: number };
    started.add(child).add(grandchild);
    const result = await terminateProcessTree({ root, closeStdin, platform: "darwin", graceMs: 2000 });
    expect(result.survivors).toEqual([]);
    expect([child, grandchild].filter(isAlive)).toEqual([]);
    expect(psRuns.count).toBeGreaterThan(1);
  });

  it("reads the table again while the child's group has a member no earlier read saw", async () => {
    // on stdin EOF the root starts a sleeper in its own group, then exits: only the group leads to it
    const script = [
      'const { spawn } = require("node:child_process");',
      'process.stdin.once("data", () => process.stdout.write("ready\\n"));',
      'process.stdin.on("end", () => {',
      `  const late = spawn(process.execPath, [${JSON.stringify(fixture("sleeper.js"))}], { stdio: "ignore" });`,
      '  require("node:fs").writeFileSync(process.env.LATE_PID_FILE, String(late.pid));',
      "  process.exit(0);",
      "});",
    ].join("\n");
    const { dir, remove } = await makeTempDir("late-member");
    try {
      const pidFile = path.join(dir, "late-pid");
      const { root, closeStdin } = await start(["-e", script], { LATE_PID_FILE: pidFile });
      const result = await terminateProcessTree({ root, closeStdin, platform: "darwin", graceMs: 2000 });
      const late = Number(await readFile(pidFile, "utf8"));
      started.add(late);
      expect(result.survivors).toEqual([]);
      expect(isAlive(late)).toBe(false);
    } finally {
      await remove();
    }
  });
});
