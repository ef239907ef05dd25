import { spawn, type ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { killTree } from "./kill-tree.js";

export interface RunOptions {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The child (and its process group) is killed when it has not exited by then. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes kept per stream: the head of stdout, the tail of stderr. Default 64 KiB. */
  maxOutputBytes?: number;
  windowsVerbatimArguments?: boolean;
}

/** How a short-lived probe command ended. */
export type RunResult =
  | { type: "exited"; code: number | null; signal: string | null; stdout: string; stderr: string; ms: number }
  | { type: "spawn-error"; errno: string | null; message: string; ms: number }
  | { type: "timeout"; stdout: string; stderr: string; ms: number }
  | { type: "aborted"; ms: number };

/** How long to wait for the stdio pipes to close after the child exited before killing its group. */
const PIPE_CLOSE_GRACE_MS = 250;

/**
 * Runs a short command with stdin closed, a deadline and an AbortSignal. Nothing survives it: on timeout,
 * abort, or pipes held open by a grandchild, the child's whole process group is killed before it resolves.
 * Never rejects.
 */
export function runProcess(options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  if (options.signal?.aborted) return Promise.resolve({ type: "aborted", ms: 0 });
  const max = options.maxOutputBytes ?? 64 * 1024;
  let child: ChildProcess;
  try {
    child = spawn(options.command, [...options.args], {
      env: options.env,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      detached: process.platform !== "win32",
      windowsHide: true,
      windowsVerbatimArguments: options.windowsVerbatimArguments,
    });
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return Promise.resolve({ type: "spawn-error", errno: err.code ?? null, message: err.message, ms: ms() });
  }
  return new Promise<RunResult>((resolve) => {
    let stdout = Buffer.alloc(0);
    let stderr = Buffer.alloc(0);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (stdout.length < max) stdout = Buffer.concat([stdout, chunk]).subarray(0, max);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > max) stderr = stderr.subarray(stderr.length - max);
    });
    let settled = false;
    let ending: "timeout" | "aborted" | null = null;
    let exit: { code: number | null; signal: string | null } | null = null;
    let closeTimer: NodeJS.Timeout | undefined;
    const text = (): { stdout: string; stderr: string } => ({
      stdout: stdout.toString("utf8"),
      stderr: stderr.toString("utf8"),
    });
    const cleanup = (): void => {
      clearTimeout(deadline);
      clearTimeout(closeTimer);
      options.signal?.removeEventListener("abort", onAbort);
    };
    const finish = (result: RunResult): void => {
      if (settled) return;
      settled = true;
      cleanup();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };
    const exited = new Promise<void>((resolveExit) => child.once("exit", () => resolveExit()));
    const stop = (why: "timeout" | "aborted"): void => {
      if (settled || ending) return;
      ending = why;
      void killTree(child.pid)
        .then(() => exited)
        .then(() => {
          if (ending === "aborted") finish({ type: "aborted", ms: ms() });
          else finish({ type: "timeout", ...text(), ms: ms() });
        });
    };
    const onAbort = (): void => stop("aborted");
    const deadline = setTimeout(() => stop("timeout"), options.timeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.once("error", (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) {
        finish({ type: "spawn-error", errno: error.code ?? null, message: error.message, ms: ms() });
      }
    });
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      if (ending) return;
      closeTimer = setTimeout(() => {
        // a grandchild holds the pipes open: end the group, then report what the child did
        void killTree(child.pid).then(() => finish({ type: "exited", ...exitInfo(), ...text(), ms: ms() }));
      }, PIPE_CLOSE_GRACE_MS);
    });
    child.once("close", () => {
      if (!ending && exit) finish({ type: "exited", ...exitInfo(), ...text(), ms: ms() });
    });
    const exitInfo = (): { code: number | null; signal: string | null } =>
      exit ?? { code: child.exitCode, signal: child.signalCode };
  });
}
