import type { Readable, Writable } from "node:stream";
import type { Launcher } from "../process/stdio-child.js";

/** The signals the CLI reacts to. */
export type CliSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

/** Where the CLI hears signals. `on` returns a function that removes the listener. */
export interface SignalSource {
  on(signal: CliSignal, listener: () => void): () => void;
}

/** Whether each standard stream is a terminal. */
export interface TtyState {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
}

/**
 * Everything the CLI touches in the outside world, so tests can run `main()` in-process. Every field is
 * optional; missing ones default to the real process (see {@link resolveCliIo}).
 */
export interface CliIo {
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  env?: NodeJS.ProcessEnv;
  /**
   * Directory that relative `--cwd`, `--codex-bin` and `--claude-bin` paths are resolved against. Default
   * `process.cwd()`.
   */
  cwd?: string;
  isTTY?: Partial<TtyState>;
  signals?: SignalSource;
  /** Starts the app-server child. Default: a real process. Tests pass `InMemoryAppServer#launcher`. */
  launcher?: Launcher;
  /** Grace after `turn/interrupt` before the tree is killed. Default: the library's (2 s). */
  interruptGraceMs?: number;
}

/** {@link CliIo} with every default filled in (`launcher` and `interruptGraceMs` stay optional). */
export interface ResolvedCliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  cwd: string;
  isTTY: TtyState;
  signals: SignalSource;
  launcher?: Launcher;
  interruptGraceMs?: number;
}

/** Signals of the real process. Installing a listener also stops Node's default exit on that signal. */
const processSignals: SignalSource = {
  on(signal, listener) {
    process.on(signal, listener);
    return () => {
      process.off(signal, listener);
    };
  },
};

function isTty(stream: unknown): boolean {
  return (stream as { isTTY?: unknown } | undefined)?.isTTY === true;
}

export function resolveCliIo(io: CliIo = {}): ResolvedCliIo {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  return {
    stdin,
    stdout,
    stderr,
    env: io.env ?? process.env,
    cwd: io.cwd ?? process.cwd(),
    isTTY: {
      stdin: io.isTTY?.stdin ?? isTty(stdin),
      stdout: io.isTTY?.stdout ?? isTty(stdout),
      stderr: io.isTTY?.stderr ?? isTty(stderr),
    },
    signals: io.signals ?? processSignals,
    ...(io.launcher ? { launcher: io.launcher } : {}),
    ...(io.interruptGraceMs !== undefined ? { interruptGraceMs: io.interruptGraceMs } : {}),
  };
}
