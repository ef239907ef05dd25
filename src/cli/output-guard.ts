import type { Writable } from "node:stream";
import { EXIT_CODES } from "./exit-codes.js";
import type { ResolvedCliIo } from "./cli-io.js";

/** Write errors that mean the reader went away (`rennet … | head -1`), or a write after that. */
const READER_GONE = new Set(["EPIPE", "ERR_STREAM_DESTROYED"]);

/** What {@link guardOutput} returns. */
export interface OutputGuard {
  /**
   * Once the writes queued on stdout are done: `code`, or when a write to stdout failed for another reason
   * than a reader that went away (ENOSPC, EIO, …), a line on stderr saying so and `code` made a failure (1
   * for a 0).
   */
  settle(code: number): Promise<number>;
  /** Removes the listeners. */
  dispose(): void;
}

/**
 * Write errors on stdout and stderr are never a crash: they are caught for the whole command. A reader that
 * goes away is not a failure of the command (a running turn is cancelled by its own listener, see
 * `driveSession`); any other failed write on stdout lost output, which {@link OutputGuard.settle} reports.
 */
export function guardOutput(io: ResolvedCliIo): OutputGuard {
  let stdoutError: NodeJS.ErrnoException | null = null;
  let stderrFailed = false;
  const onStdoutError = (error: NodeJS.ErrnoException): void => {
    stdoutError ??= error;
  };
  const ignore = (): void => {
    stderrFailed = true;
  };
  // a test may pass a bare `{ write }` object: only emitters can report write errors
  const emits = (stream: Writable): boolean => typeof stream.on === "function";
  if (emits(io.stdout)) io.stdout.on("error", onStdoutError);
  if (emits(io.stderr)) io.stderr.on("error", ignore);
  return {
    async settle(code) {
      if (emits(io.stdout)) await queuedWritesDone(io.stdout);
      // a failed synchronous write (a file) sets `errored` at once and emits its error only on the next tick
      const error = stdoutError ?? (io.stdout.errored as NodeJS.ErrnoException | null | undefined) ?? null;
      if (error === null || READER_GONE.has(error.code ?? "")) return code;
      io.stderr.write(`rennet: could not write to stdout (${error.message}): the output is incomplete\n`);
      return code === EXIT_CODES.completed ? EXIT_CODES.failed : code;
    },
    dispose() {
      if (emits(io.stdout)) release(io.stdout, onStdoutError, stdoutError !== null);
      if (emits(io.stderr)) release(io.stderr, ignore, stderrFailed);
    },
  };
}

/**
 * Removes `listener`; a stream that failed a write whose error event is still to come (a synchronous write's
 * failure is emitted on the next tick) keeps a listener for that one event, so it is never an uncaught error.
 */
function release(stream: Writable, listener: (error: NodeJS.ErrnoException) => void, seen: boolean): void {
  stream.off("error", listener);
  if (stream.errored && !seen) stream.once("error", () => {});
}

/** Resolves when the writes queued on `stream` so far have been done or failed. */
function queuedWritesDone(stream: Writable): Promise<void> {
  if (stream.destroyed || !(stream.writableLength > 0)) return Promise.resolve();
  return new Promise((resolve) => stream.write("", () => resolve()));
}
