import { performance } from "node:perf_hooks";
import { onAbort } from "../harness/on-abort.js";
import type { LaunchSpec } from "./stdio-child.js";
import { ByteTail, decodeUtf8Whole } from "./byte-tail.js";
import { settledWithin } from "./settled-within.js";
import { spawnChild } from "./spawn-child.js";

/** Bytes kept of each stream by default: the head of stdout (or its tail, see `keepStdout`), the tail of stderr. */
const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
/** How long the stdio pipes may stay open after the child exited before its tree is ended. */
const PIPE_CLOSE_GRACE_MS = 250;

/** How {@link runCommand} runs one short command. */
export interface RunCommandOptions {
  /** The whole tree is ended when the child has not exited by then. */
  timeoutMs: number;
  /** Aborting ends the whole tree; the result is then `aborted`. */
  signal?: AbortSignal;
  /** Written to the child's stdin, which is then closed. Without it the child starts with stdin closed. */
  input?: string | Uint8Array;
  /** Bytes kept of stdout. Default {@link DEFAULT_MAX_OUTPUT_BYTES}. */
  maxStdoutBytes?: number;
  /**
   * Which end of a longer stdout is kept: `head` (default) or `tail` (for output whose answer comes last after
   * any amount of noise). Memory stays bounded by `maxStdoutBytes` either way.
   */
  keepStdout?: "head" | "tail";
  /** Bytes kept of the tail of stderr. Default {@link DEFAULT_MAX_OUTPUT_BYTES}. */
  maxStderrBytes?: number;
  /** SIGTERM → SIGKILL grace when the tree is ended. Default 0: SIGKILL follows SIGTERM at once. */
  graceMs?: number;
  /** Spawn registry directory; null keeps the child out of the registry. Default: `defaultSpawnRegistryDir()`. */
  registryDir?: string | null;
}

/** How a short command ended. `ms` is the time from the call to the result. */
export type RunResult =
  | {
      type: "exited";
      code: number | null;
      signal: string | null;
      stdout: string;
      stderr: string;
      /** Stdout was longer than `maxStdoutBytes`; `stdout` holds its head (or its tail, see `keepStdout`). */
      stdoutTruncated: boolean;
      ms: number;
    }
  | { type: "spawn-error"; errno: string | null; message: string; ms: number }
  | { type: "timeout"; stdout: string; stderr: string; ms: number }
  | { type: "aborted"; ms: number };

/**
 * Runs a short command (`spec` as a harness's launch builder made it, or by hand) through `spawnChild`: its own process
 * group, the tree marker and the spawn registry. Nothing of it survives: on timeout, on abort, and when a
 * grandchild holds the output pipes open after the child exited, the whole tree is ended (SIGTERM, then after
 * `graceMs` a frozen SIGKILL) before the result is given. A child that exits with its pipes closed leaves its
 * tree alone. An already aborted signal starts nothing. Never rejects.
 */
export async function runCommand(spec: LaunchSpec, options: RunCommandOptions): Promise<RunResult> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  const signal = options.signal;
  if (signal?.aborted) return { type: "aborted", ms: 0 };
  const child = spawnChild(spec, {
    stdin: options.input === undefined ? "ignore" : "pipe",
    stderrTailBytes: options.maxStderrBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    registryDir: options.registryDir,
    stdinGraceMs: 0,
    graceMs: options.graceMs ?? 0,
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  const maxStdout = options.maxStdoutBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const stdout =
    options.keepStdout === "tail"
      ? collectTail(child.stdout, maxStdout)
      : collectHead(child.stdout, maxStdout);
  const output = (): { stdout: string; stderr: string } => ({
    stdout: stdout.text(),
    stderr: child.stderrTail(),
  });

  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  const stopped = new Promise<"timeout" | "aborted">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), options.timeoutMs);
    // one listener of ours on the signal however many commands share it (see onAbort)
    if (signal) unsubscribe = onAbort(signal, () => resolve("aborted"));
  });
  try {
    const ending = await Promise.race([child.exit, stopped]);
    if (typeof ending === "string") {
      await child.terminate();
      await settledWithin(child.exit, PIPE_CLOSE_GRACE_MS);
      return ending === "aborted"
        ? { type: "aborted", ms: ms() }
        : { type: "timeout", ...output(), ms: ms() };
    }
    if (ending.type === "spawn-error") return { ...ending, ms: ms() };
    // a grandchild that still holds the pipes is ended with the tree; the child's own exit is reported
    if (await settledWithin(child.outputClosed, PIPE_CLOSE_GRACE_MS)) await child.release();
    else await child.terminate();
    const { code, signal: exitSignal } = ending;
    return {
      type: "exited",
      code,
      signal: exitSignal,
      ...output(),
      stdoutTruncated: stdout.truncated,
      ms: ms(),
    };
  } finally {
    clearTimeout(timer);
    unsubscribe?.();
    child.closeOutput();
  }
}

/** Keeps the last `maxBytes` bytes a stream yields; `truncated` once anything before them was dropped. */
function collectTail(
  stream: NodeJS.ReadableStream,
  maxBytes: number,
): { text(): string; readonly truncated: boolean } {
  const tail = new ByteTail(maxBytes);
  let size = 0;
  stream.on("data", (chunk: Buffer) => {
    tail.push(chunk);
    size += chunk.length;
  });
  return {
    text: () => tail.text(),
    get truncated() {
      return size > maxBytes;
    },
  };
}

/** Keeps the first `maxBytes` bytes a stream yields and drops the rest. */
function collectHead(
  stream: NodeJS.ReadableStream,
  maxBytes: number,
): { text(): string; readonly truncated: boolean } {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  stream.on("data", (chunk: Buffer) => {
    if (size >= maxBytes) {
      truncated = true;
      return;
    }
    const kept = chunk.length > maxBytes - size ? chunk.subarray(0, maxBytes - size) : chunk;
    if (kept.length < chunk.length) truncated = true;
    chunks.push(kept);
    size += kept.length;
  });
  return {
    text: () => decodeUtf8Whole(Buffer.concat(chunks, size)),
    get truncated() {
      return truncated;
    },
  };
}
