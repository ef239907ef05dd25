import { chmod, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand, type RunResult } from "../../src/process/run-command.js";
import { cleanUpAfterEach } from "./process-test-helpers.js";
import { isAlive } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import { tempDir } from "../helpers/temp.js";

const { started } = cleanUpAfterEach();

const node = process.execPath;
const noRegistry = { registryDir: null } as const;

/** The pids a shell script printed, one a line, remembered for cleanup. */
function printedPids(result: RunResult): number[] {
  if (result.type !== "exited" && result.type !== "timeout") throw new Error(`no output: ${result.type}`);
  const pids = result.stdout.split("\n").filter(Boolean).map(Number);
  for (const pid of pids) started.add(pid);
  return pids;
}

describe("runCommand", () => {
  it("reports the exit with stdout and stderr", async () => {
    const script = "process.stdout.write('out'); process.stderr.write('err'); process.exitCode = 3";
    const result = await runCommand(
      { command: node, args: ["-e", script] },
      { timeoutMs: 30_000, ...noRegistry },
    );
    expect(result).toMatchObject({
      type: "exited",
      code: 3,
      signal: null,
      stdout: "out",
      stderr: "err",
      stdoutTruncated: false,
    });
  });

  it("runs with the spec's cwd and environment", async () => {
    const dir = await tempDir("run-cwd");
    const script = "process.stdout.write(process.cwd() + '|' + process.env.RUN_COMMAND_PROBE)";
    const result = await runCommand(
      { command: node, args: ["-e", script], cwd: dir, env: { ...process.env, RUN_COMMAND_PROBE: "here" } },
      { timeoutMs: 30_000, ...noRegistry },
    );
    expect(result).toMatchObject({ type: "exited", code: 0 });
    const [cwd, value] = (result.type === "exited" ? result.stdout : "").split("|");
    expect(cwd).toBe(await import("node:fs/promises").then((fs) => fs.realpath(dir)));
    expect(value).toBe("here");
  });

  it("starts the child with stdin closed, or writes the given input and closes it", async () => {
    const echo = { command: node, args: ["-e", "process.stdin.pipe(process.stdout)"] };
    expect(await runCommand(echo, { timeoutMs: 30_000, ...noRegistry })).toMatchObject({
      type: "exited",
      code: 0,
      stdout: "",
    });
    expect(await runCommand(echo, { timeoutMs: 30_000, input: "fed ✓", ...noRegistry })).toMatchObject({
      type: "exited",
      code: 0,
      stdout: "fed ✓",
    });
  });

  it("keeps the head of stdout and the tail of stderr within the caps", async () => {
    const script =
      "process.stdout.write('A'.repeat(5000) + 'B'); process.stderr.write('C' + 'D'.repeat(5000))";
    const result = await runCommand(
      { command: node, args: ["-e", script] },
      { timeoutMs: 30_000, maxStdoutBytes: 100, maxStderrBytes: 50, ...noRegistry },
    );
    expect(result).toMatchObject({
      type: "exited",
      code: 0,
      stdout: "A".repeat(100),
      stderr: "D".repeat(50),
      stdoutTruncated: true,
    });
  });

  it("keeps the tail of stdout instead with keepStdout: tail, and says it was cut", async () => {
    const script = "process.stdout.write('A' + 'B'.repeat(5000) + 'C'.repeat(99))";
    const result = await runCommand(
      { command: node, args: ["-e", script] },
      { timeoutMs: 30_000, maxStdoutBytes: 100, keepStdout: "tail", ...noRegistry },
    );
    expect(result).toMatchObject({ type: "exited", stdout: `B${"C".repeat(99)}`, stdoutTruncated: true });
    const short = await runCommand(
      { command: node, args: ["-e", "process.stdout.write('x'.repeat(100))"] },
      { timeoutMs: 30_000, maxStdoutBytes: 100, keepStdout: "tail", ...noRegistry },
    );
    expect(short).toMatchObject({ type: "exited", stdout: "x".repeat(100), stdoutTruncated: false });
  });

  it("reports a missing executable as a spawn error with the errno and a hint, never a rejection", async () => {
    const result = await runCommand(
      { command: "/nonexistent/rennet-no-such-command", args: [] },
      { timeoutMs: 30_000, ...noRegistry },
    );
    expect(result).toMatchObject({ type: "spawn-error", errno: "ENOENT" });
    expect(result.type === "spawn-error" && result.message).toContain("check that the executable exists");
  });

  it("reports arguments Node refuses (a NUL byte) as a spawn error", async () => {
    const result = await runCommand({ command: "codex\0", args: [] }, { timeoutMs: 30_000, ...noRegistry });
    expect(result).toMatchObject({ type: "spawn-error", errno: "ERR_INVALID_ARG_VALUE" });
  });

  it.runIf(process.platform !== "win32")("reports a file that is not executable as EACCES", async () => {
    const file = path.join(await tempDir("run-noexec"), "tool");
    await writeFile(file, "#!/bin/sh\nexit 0\n");
    await chmod(file, 0o644);
    const result = await runCommand({ command: file, args: [] }, { timeoutMs: 30_000, ...noRegistry });
    expect(result).toMatchObject({ type: "spawn-error", errno: "EACCES" });
  });

  it("starts nothing when the signal is already aborted", async () => {
    const marker = path.join(await tempDir("run-aborted"), "ran");
    const result = await runCommand(
      { command: node, args: ["-e", `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`] },
      { timeoutMs: 30_000, signal: AbortSignal.abort(), ...noRegistry },
    );
    expect(result).toEqual({ type: "aborted", ms: 0 });
    await expect(readFile(marker)).rejects.toThrow();
  });
});

describe.runIf(process.platform === "linux")("runCommand ends the whole tree", () => {
  it("on timeout, SIGKILLing what ignores SIGTERM once the grace has passed", async () => {
    const script = "trap '' TERM; sleep 300 & echo $!; echo $$; wait";
    const result = await runCommand(
      { command: "/bin/sh", args: ["-c", script] },
      { timeoutMs: 2000, graceMs: 100 },
    );
    expect(result.type).toBe("timeout");
    const pids = printedPids(result);
    expect(pids).toHaveLength(2);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it("on abort, and removes its registry entry", async () => {
    const dir = await tempDir("run-abort");
    const registryDir = path.join(dir, "spawned");
    const pidFile = path.join(dir, "pids");
    const controller = new AbortController();
    const pending = runCommand(
      { command: "/bin/sh", args: ["-c", `sleep 300 & echo $! > ${pidFile}; echo $$ >> ${pidFile}; wait`] },
      { timeoutMs: 60_000, signal: controller.signal, registryDir },
    );
    let pids: number[] = [];
    await waitFor(async () => {
      pids = (await readFile(pidFile, "utf8").catch(() => "")).split("\n").filter(Boolean).map(Number);
      return pids.length === 2;
    }, "the shell to write both pids");
    for (const pid of pids) started.add(pid);
    // the entry exists while the command runs
    await waitFor(async () => (await readdir(registryDir).catch(() => [])).length === 1, "a registry entry");
    controller.abort();
    expect((await pending).type).toBe("aborted");
    expect(pids.filter(isAlive)).toEqual([]);
    expect(await readdir(registryDir)).toEqual([]);
  });

  it("when a grandchild holds the output open after the child exited (found by its process group)", async () => {
    // the grandchild drops the tree marker: only the child's process group still leads to it
    const script = "env -u RENNET_TREE_ID sleep 300 & echo $!; exit 7";
    const result = await runCommand(
      { command: "/bin/sh", args: ["-c", script] },
      { timeoutMs: 60_000, ...noRegistry },
    );
    expect(result).toMatchObject({ type: "exited", code: 7, signal: null });
    const [grandchild] = printedPids(result);
    expect(grandchild).toBeGreaterThan(0);
    expect(isAlive(grandchild ?? 0)).toBe(false);
  });

  it("removes its registry entry after a normal exit", async () => {
    const registryDir = path.join(await tempDir("run-registry"), "spawned");
    const result = await runCommand({ command: node, args: ["-e", ""] }, { timeoutMs: 30_000, registryDir });
    expect(result).toMatchObject({ type: "exited", code: 0 });
    // the directory exists only if the entry was written
    expect(await readdir(registryDir)).toEqual([]);
  });
});
