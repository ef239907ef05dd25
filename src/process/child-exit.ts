import type { ChildProcess } from "node:child_process";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import { oversizeArgumentHint } from "./argument-size.js";
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
 * (`ENOENT`: the path and the working directory, or the interpreter of a script that is there; `EACCES`: the
 * execute permission; `E2BIG`: the argument or environment variable that is too long).
 */
export function describeSpawnError(spec: LaunchSpec, error: NodeJS.ErrnoException): ProcessExit {
  const errno = typeof error.code === "string" ? error.code : null;
  const interpreter = errno === "ENOENT" ? scriptInterpreterLine(spec) : null;
  const hint =
    interpreter !== null
      ? `the script is there, but the interpreter its first line names (${JSON.stringify(interpreter)}) was not ` +
        "found: fix that line (a \\r at its end means the file has Windows line ends: convert them to \\n)"
      : errno === "ENOENT"
        ? `check that the executable exists (or is on PATH)${spec.cwd ? ` and that the working directory ${spec.cwd} exists` : ""}`
        : errno === "EACCES"
          ? "check that the file is executable (chmod +x) and that its directory is readable"
          : errno === "E2BIG"
            ? oversizeArgumentHint(spec)
            : "check the executable path and arguments";
  return {
    type: "spawn-error",
    errno,
    message: `Could not start ${spec.command}: ${error.message}; ${hint}.`,
  };
}

/** The longest `#!` line a spawn error quotes. */
const MAX_INTERPRETER_LINE = 200;

/**
 * The `#!` line of `spec.command` when it is a path to a script that is there (and the working directory is
 * too), so that ENOENT can only mean its interpreter is missing; null otherwise.
 */
function scriptInterpreterLine(spec: LaunchSpec): string | null {
  if (!spec.command.includes("/")) return null;
  let fd: number | null = null;
  try {
    if (spec.cwd !== undefined && !statSync(spec.cwd).isDirectory()) return null;
    const path = resolve(spec.cwd ?? ".", spec.command);
    if (!statSync(path).isFile()) return null;
    fd = openSync(path, "r");
    const head = Buffer.alloc(MAX_INTERPRETER_LINE + 2);
    const line =
      head
        .subarray(0, readSync(fd, head, 0, head.length, 0))
        .toString("utf8")
        .split("\n")[0] ?? "";
    return line.startsWith("#!") ? line.slice(0, MAX_INTERPRETER_LINE) : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
