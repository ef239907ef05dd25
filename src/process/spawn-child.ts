import { spawn, type ChildProcess } from "node:child_process";
import { PassThrough, type Readable, type Writable } from "node:stream";
import type { LaunchSpec, ProcessExit } from "./stdio-child.js";
import { ByteTail, DEFAULT_STDERR_TAIL_BYTES } from "./byte-tail.js";
import { trackChildTree, type ChildTreeOptions } from "./child-tree.js";
import { readPidBaseline, TREE_MARKER_VARIABLE } from "./process-table.js";
import type { SpawnRegistration } from "./spawn-registry.js";
import type { TerminateTreeResult } from "./terminate-tree.js";
import { killOnExit } from "./kill-on-exit.js";
import { settledWithin } from "./settled-within.js";
import { randomHex } from "../random-id.js";
import { describeSpawnError, watchChildExit } from "./child-exit.js";

/** How long the output pipes may stay open after the tree ended (what the child wrote last is read meanwhile). */
const OUTPUT_CLOSE_GRACE_MS = 100;

/** How to start one child. Tree options (registry, tracking, graces) have the defaults of {@link ChildTreeOptions}. */
export interface SpawnChildOptions extends ChildTreeOptions {
  /** `pipe`: the caller writes the child's stdin; `ignore`: the child starts with stdin closed. */
  stdin: "pipe" | "ignore";
  /** How much of stderr `stderrTail()` keeps, in bytes. Default 8 KiB. */
  stderrTailBytes?: number;
  /** Runs when termination closes the child's stdin, just before the pipe is destroyed. Must not throw. */
  onCloseStdin?: () => void;
}

/** A started child (or one that failed to start) with its tree. */
export interface SpawnedChild {
  /** OS pid; null when the spawn failed. */
  readonly pid: number | null;
  /** The child's stdin; null with `stdin: "ignore"` and when the spawn failed before a process existed. */
  readonly stdin: Writable | null;
  /** The child's stdout (an ended stream when the spawn failed before a process existed). */
  readonly stdout: Readable;
  /** Resolves once: when the child exited (and its stderr drained, at most 100 ms later) or failed to start. */
  readonly exit: Promise<ProcessExit>;
  /** Resolves when the child's stdout and stderr have both closed. */
  readonly outputClosed: Promise<void>;
  /** Resolves once the registry entry is written (null: registry disabled or unusable, or no process). */
  readonly registration: Promise<SpawnRegistration | null>;
  /** The last `stderrTailBytes` of stderr, as text with no character cut in half. */
  stderrTail(): string;
  /**
   * Ends the whole tree (see `ChildTree.terminate`); resolves after `exit` when the child is gone, with the output
   * pipes closed (destroyed when something outside the tree still holds them). Idempotent; never rejects.
   */
  terminate(options?: { graceMs?: number }): Promise<TerminateTreeResult>;
  /** For a child that exited with its output closed: stops tracking, deletes the registry entry. Never rejects. */
  release(): Promise<void>;
  /** Destroys the stdout and stderr pipes (output a survivor still holds open is no longer wanted). */
  closeOutput(): void;
}

/**
 * The one place a child process is spawned. The executable runs directly (no shell), hidden on Windows, and on
 * POSIX as the leader of a new session and process group (`detached`), so a terminal's Ctrl-C reaches only
 * Rennet, and a group kill reaches the whole tree. Every process of the tree inherits `RENNET_TREE_ID=<random
 * hex>`, so termination (and a later reaper) finds descendants that double-forked out of the tree. The child is
 * registered in the spawn registry (unless `registryDir` is null) and its tree walked every `trackIntervalMs`.
 * `windowsVerbatimArguments` is passed through for the `cmd.exe` form. If this process exits while the child runs,
 * the child (its group on POSIX, and on Linux its whole tree) is SIGKILLed (`killOnExit`). Never throws: a failed start resolves
 * `exit` with a `spawn-error` carrying the errno and a hint on what to check.
 */
export function spawnChild(spec: LaunchSpec, options: SpawnChildOptions): SpawnedChild {
  const tail = new ByteTail(options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
  const groupLeader = process.platform !== "win32";
  const marker = randomHex(12);
  // before the spawn, so that every process of the tree is newer than it (see readPidBaseline)
  const pidBaseline = readPidBaseline();
  let child: ChildProcess;
  try {
    child = spawnProcess(spec, options.stdin, marker, groupLeader);
  } catch (error) {
    return failedBeforeStart(spec, error as NodeJS.ErrnoException, tail);
  }
  const stdout = child.stdout as Readable;
  const stderr = child.stderr as Readable;
  const { exit, exited, outputClosed, isRunning } = watchChildExit(child, spec, tail);
  child.stdin?.on("error", () => {
    // EPIPE after the child exits is the writer's to notice; never let it become uncaught
  });
  const closeStdin = (): void => {
    options.onCloseStdin?.();
    // destroy, not just end: a child that stopped reading must still see EOF now
    child.stdin?.destroy();
  };
  const closeOutput = (): void => {
    stdout.destroy();
    stderr.destroy();
  };

  const pid = child.pid ?? null;
  if (pid === null)
    return failedAfterStart(
      tail,
      { stdin: child.stdin, stdout, exit, outputClosed, closeOutput },
      closeStdin,
    );
  // this process exiting mid-turn (process.exit(), an uncaught exception) must not leave the child running;
  // released at the child's exit, after which its pid may be reused
  child.once("exit", killOnExit(pid, groupLeader, marker));
  const tree = trackChildTree(
    {
      pid,
      command: spec.command,
      args: spec.args,
      marker,
      groupLeader,
      pidBaseline,
      isRunning,
      exited,
      closeStdin,
    },
    options,
  );
  return {
    pid,
    stdin: child.stdin,
    stdout,
    exit,
    outputClosed,
    registration: tree.registration,
    stderrTail: () => tail.text(),
    // resolves after `exit` once the child is gone, so a caller never sees the tree ended before the exit
    terminate: async (terminateOptions) => {
      const result = await tree.terminate(terminateOptions);
      if (!isRunning()) await exit;
      // a process no walk found (it left the tree) or a survivor may still hold the pipes: an open pipe would
      // keep this process alive until that process ends
      if (!(await settledWithin(outputClosed, OUTPUT_CLOSE_GRACE_MS))) closeOutput();
      return result;
    },
    release: () => tree.release(),
    closeOutput,
  };
}

/** Starts the executable itself: no shell, hidden on Windows, a group leader on POSIX, the tree marker set. */
function spawnProcess(
  spec: LaunchSpec,
  stdin: SpawnChildOptions["stdin"],
  marker: string,
  groupLeader: boolean,
): ChildProcess {
  return spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: { ...(spec.env ?? process.env), [TREE_MARKER_VARIABLE]: marker },
    stdio: [stdin, "pipe", "pipe"],
    windowsHide: true,
    detached: groupLeader,
    ...(spec.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
  });
}

function withoutProcess(
  tail: ByteTail,
): Pick<SpawnedChild, "pid" | "registration" | "stderrTail" | "release"> {
  return {
    pid: null,
    registration: Promise.resolve(null),
    stderrTail: () => tail.text(),
    release: async () => {},
  };
}

/** A start that failed asynchronously (no pid): there is no tree, only the pipes to close. */
function failedAfterStart(
  tail: ByteTail,
  pipes: Pick<SpawnedChild, "stdin" | "stdout" | "exit" | "outputClosed" | "closeOutput">,
  closeStdin: () => void,
): SpawnedChild {
  const terminate = async (): Promise<TerminateTreeResult> => {
    closeStdin();
    return { endedBy: "stdin-eof", survivors: [] };
  };
  return { ...withoutProcess(tail), ...pipes, terminate };
}

function failedBeforeStart(spec: LaunchSpec, error: NodeJS.ErrnoException, tail: ByteTail): SpawnedChild {
  const stdout = new PassThrough();
  stdout.end();
  return {
    ...withoutProcess(tail),
    stdin: null,
    stdout,
    exit: Promise.resolve(describeSpawnError(spec, error)),
    outputClosed: Promise.resolve(),
    terminate: async () => ({ endedBy: "stdin-eof", survivors: [] }),
    closeOutput: () => stdout.destroy(),
  };
}
