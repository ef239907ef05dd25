// Runs one child process and times it as a whole: performance.now() right before spawn() and at its `exit`.
// stdout goes to a file (the kernel writes it; the benchmark spends no CPU reading it while the clock runs),
// stderr is kept (its last 4 KiB) for error messages. A run over `timeoutMs` is killed and rejected.
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

const STDERR_TAIL = 4096;
let runCounter = 0;

/**
 * `{command, args, env, cwd, scratchDir, timeoutMs?}` → `{ms, code, signal, stdout (Buffer), stderr}`.
 * `scratchDir` holds the stdout file, removed after reading.
 */
export async function timedRun({ command, args, env, cwd, scratchDir, timeoutMs = 120_000 }) {
  const stdoutPath = path.join(scratchDir, `stdout-${process.pid}-${++runCounter}.txt`);
  const stdoutFd = openSync(stdoutPath, "w");
  let stderr = "";
  let timer;
  try {
    const start = performance.now();
    const child = spawn(command, args, { env, cwd, stdio: ["ignore", stdoutFd, "pipe"] });
    const stderrClosed = new Promise((resolve) => child.stderr.once("close", resolve));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    const exit = await new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code, signal) => resolve({ ms: performance.now() - start, code, signal }));
      timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`${path.basename(command)} ${args.join(" ")} ran over ${timeoutMs} ms`));
      }, timeoutMs);
    });
    await stderrClosed;
    return { ...exit, stdout: readFileSync(stdoutPath), stderr };
  } finally {
    clearTimeout(timer);
    closeSync(stdoutFd);
    rmSync(stdoutPath, { force: true });
  }
}

/** `timedRun` that rejects unless the exit code is 0; the error carries the stderr tail. */
export async function timedRunOk(options) {
  const run = await timedRun(options);
  if (run.code !== 0) {
    const what = [path.basename(options.command), ...options.args.slice(0, 3)].join(" ");
    throw new Error(
      `${what} … exited ${run.code ?? run.signal}: ${run.stderr.trim().split("\n").slice(-3).join(" | ")}`,
    );
  }
  return run;
}

/** The last non-empty line of `buffer`, parsed as JSON (null when it is not JSON). */
export function lastJsonLine(buffer) {
  let end = buffer.length;
  while (end > 0 && (buffer[end - 1] === 0x0a || buffer[end - 1] === 0x0d)) end--;
  const start = buffer.lastIndexOf(0x0a, end - 1) + 1;
  try {
    return JSON.parse(buffer.subarray(start, end).toString("utf8"));
  } catch {
    return null;
  }
}
