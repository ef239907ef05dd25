import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import type { ByteTail } from "./byte-tail.js";
import type { LaunchSpec, ProcessExit } from "./stdio-child.js";

/** The longest `exit` waits, after the child exited, for its stderr to be drained. */
const STDERR_DRAIN_MS = 100;

/** How a spawned child's end is observed. */
export interface ChildExitWatch {
  /** Resolves once: when the child exited (and its stderr drained, at most 100 ms later) or failed to start. */
  readonly exit: Promise<ProcessExit>;
  /** Resolves at the child's `exit` event. */
  readonly exited: Promise<void>;
  /** Resolves when the child's stdout and stderr have both closed. */
  readonly outputClosed: Promise<void>;
  /** True from a successful spawn until the child's `exit` event (or a failed start). */
  isRunning(): boolean;
}

/**
 * Watches a just-spawned child: its `exit` (reported once stderr is drained, so that the tail then holds its
 * last words; a grandchild that keeps stderr open delays it by at most 100 ms), a failed start (`error` before
 * a pid existed: a `spawn-error` exit), and the close of its output. Stderr is kept in `tail`.
 */
export function watchChildExit(child: ChildProcess, spec: LaunchSpec, tail: ByteTail): ChildExitWatch {
  const stdout = child.stdout as Readable;
  const stderr = child.stderr as Readable;
  let running = child.pid !== undefined;
  let resolveExit!: (exit: ProcessExit) => void;
  const exit = new Promise<ProcessExit>((resolve) => {
    resolveExit = resolve;
  });
  let stderrClosed = false;
  const stderrDrained = closed(stderr).then(() => {
    stderrClosed = true;
  });
  const outputClosed = Promise.all([closed(stdout), stderrDrained]).then(() => undefined);
  let resolveExited!: () => void;
  const exited = new Promise<void>((resolve) => {
    resolveExited = resolve;
  });
  child.once("exit", (code, signal) => {
    running = false;
    resolveExited();
    const report = (): void => resolveExit({ type: "exited", code, signal });
    if (stderrClosed) report();
    else {
      const timer = setTimeout(report, STDERR_DRAIN_MS);
      void stderrDrained.then(() => {
        clearTimeout(timer);
        report();
      });
    }
  });
  child.on("error", (error: NodeJS.ErrnoException) => {
    // before 'spawn' this is a failed start; later errors (a failed kill) change nothing
    if (child.pid === undefined) {
      running = false;
      resolveExit(describeSpawnError(spec, error));
    }
  });
  stderr.on("data", (chunk: Buffer) => tail.push(chunk));
  return { exit, exited, outputClosed, isRunning: () => running };
}

function closed(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.closed) resolve();
    else stream.once("close", () => resolve());
  });
}

/**
 * What a failed start reports: the errno and a message that names the command and what to check
 * (`ENOENT`: the path and the working directory; `EACCES`: the execute permission). Pure.
 */
export function describeSpawnError(spec: LaunchSpec, error: NodeJS.ErrnoException): ProcessExit {
  const errno = typeof error.code === "string" ? error.code : null;
  const hint =
    errno === "ENOENT"
      ? `check that the executable exists (or is on PATH)${spec.cwd ? ` and that the working directory ${spec.cwd} exists` : ""}`
      : errno === "EACCES"
        ? "check that the file is executable (chmod +x) and that its directory is readable"
        : "check the executable path and arguments";
  return {
    type: "spawn-error",
    errno,
    message: `Could not start ${spec.command}: ${error.message}; ${hint}.`,
  };
}
