import type { Transport } from "../jsonl/transport.js";

/** How to start a child: exactly this executable with exactly these arguments. */
export interface LaunchSpec {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Windows only: pass `args` to the command line untouched (a `cmd.exe /d /e:on /v:off /s /c "…"` launch). */
  windowsVerbatimArguments?: boolean;
}

/** How a child process ended, or why it never started. */
export type ProcessExit =
  | { type: "exited"; code: number | null; signal: string | null }
  | { type: "spawn-error"; errno: string | null; message: string };

/**
 * A started child that speaks over its stdin and stdout (or an in-memory stand-in), as the session that
 * started it sees it. That session owns it and must call `terminate()` once the stream has ended.
 */
export interface StdioChild {
  /** OS pid; null for in-memory peers and for a spawn that failed. */
  readonly pid: number | null;
  readonly transport: Transport;
  /** Resolves once: when the process has exited or failed to start. Never rejects. */
  readonly exit: Promise<ProcessExit>;
  /** The last few KiB of stderr, as text. */
  stderrTail(): string;
  /**
   * Ends the whole process tree: close stdin, SIGTERM, and after a grace SIGKILL every descendant that is
   * still alive (found by walking the tree first). Idempotent; resolves when nothing of the tree survives.
   */
  terminate(options?: { graceMs?: number }): Promise<void>;
}

/** Starts a child. Must not throw: spawn failures surface through `exit`. */
export type Launcher = (spec: LaunchSpec) => StdioChild;
