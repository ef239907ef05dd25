import { randomBytes } from "node:crypto";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { PassThrough } from "node:stream";
import { StreamTransport } from "../jsonl/stream-transport.js";
import type { AppServerProcess, LaunchSpec, Launcher, ProcessExit } from "./app-server-process.js";
import { ByteTail, DEFAULT_STDERR_TAIL_BYTES } from "./byte-tail.js";
import { isRunningState, type ProcessIdentity } from "./process-table-parse.js";
import { getProcessStartTime, readProcessTable } from "./process-table.js";
import { collectTree } from "./process-tree.js";
import { registerSpawn, type SpawnRegistration } from "./spawn-registry.js";
import { DEFAULT_TERM_GRACE_MS, terminateProcessTree, type TerminateTreeResult } from "./terminate-tree.js";
import { TREE_MARKER_VARIABLE } from "./process-table.js";

/** The longest `exit` waits, after the child exited, for its stderr to be drained. */
const STDERR_DRAIN_MS = 100;

/** How often the child's tree is walked and recorded while it runs, by default. */
export const DEFAULT_TRACK_INTERVAL_MS = 2000;

/** Options of {@link createAppServerLauncher}. Every field has a default suited to `codex app-server`. */
export interface AppServerLauncherOptions {
  /** Spawn registry directory; null disables the registry. Default: `defaultSpawnRegistryDir()` at spawn time. */
  registryDir?: string | null;
  /** Period of the tree walk that records descendants (for `terminate` and the registry); 0 disables it. */
  trackIntervalMs?: number;
  /** How long the child gets to exit after its stdin closes (see `DEFAULT_STDIN_GRACE_MS`). */
  stdinGraceMs?: number;
  /** SIGTERM → SIGKILL grace used when `terminate()` is called without one (see `DEFAULT_TERM_GRACE_MS`). */
  graceMs?: number;
  /** How much of stderr `stderrTail()` keeps, in bytes. */
  stderrTailBytes?: number;
}

/** A started child with the details tests and diagnostics need beyond {@link AppServerProcess}. */
export interface SpawnedAppServer extends AppServerProcess {
  /** Like `terminate`, resolving with how the tree ended. Shares the single run with `terminate`. */
  terminateWithResult(options?: { graceMs?: number }): Promise<TerminateTreeResult>;
  /** Resolves once the registry entry is written (null: registry disabled or unusable). */
  readonly registration: Promise<SpawnRegistration | null>;
}

/**
 * Makes a {@link Launcher} that spawns the executable directly (no shell) with piped stdio, hidden on Windows,
 * and on unix as the leader of a new session and process group (`detached`), so a terminal's Ctrl-C reaches
 * only Rennet, which then cancels the turn cleanly instead of codex dying mid-turn. The child is registered in
 * the spawn registry and its tree re-walked every `trackIntervalMs`; `exit` resolves once the child has exited
 * and its stderr is drained (at most 100 ms later), so `stderrTail()` then holds its last words.
 */
export function createAppServerLauncher(
  options: AppServerLauncherOptions = {},
): (spec: LaunchSpec) => SpawnedAppServer {
  return (spec) => launch(spec, options);
}

/** Spawns `codex app-server` (or any {@link LaunchSpec}) with the default options. Never throws. */
export const spawnAppServer: Launcher = createAppServerLauncher();

function launch(spec: LaunchSpec, options: AppServerLauncherOptions): SpawnedAppServer {
  const tail = new ByteTail(options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
  const groupLeader = process.platform !== "win32";
  // Every process of this tree inherits the marker, so terminate (and a later reaper) can find descendants that
  // double-forked out of the tree into a session of their own.
  const marker = randomBytes(12).toString("hex");
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...(spec.env ?? process.env), [TREE_MARKER_VARIABLE]: marker },
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
      detached: groupLeader,
      ...(spec.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
    });
  } catch (error) {
    return failedBeforeStart(spec, error as NodeJS.ErrnoException, tail);
  }

  let running = child.pid !== undefined;
  let resolveExit!: (exit: ProcessExit) => void;
  const exit = new Promise<ProcessExit>((resolve) => {
    resolveExit = resolve;
  });
  let stderrClosed = false;
  const stderrDrained = new Promise<void>((resolve) => {
    child.stderr.once("close", () => {
      stderrClosed = true;
      resolve();
    });
  });
  let resolveChildExited!: () => void;
  const childExited = new Promise<void>((resolve) => {
    resolveChildExited = resolve;
  });
  child.once("exit", (code, signal) => {
    running = false;
    resolveChildExited();
    // report the exit once stderr is drained, so stderrTail() then holds the last words; a grandchild that
    // keeps stderr open delays it by at most STDERR_DRAIN_MS
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
      resolveExit(spawnError(spec, error));
    }
  });
  child.stderr.on("data", (chunk: Buffer) => tail.push(chunk));
  child.stdin.on("error", () => {
    // EPIPE after the child exits is reported by the transport; never let it become uncaught
  });
  const transport = new StreamTransport(child.stdout, child.stdin);
  const pid = child.pid ?? null;

  const tracked = new Map<number, string>();
  const registration =
    pid === null
      ? Promise.resolve(null)
      : (async (): Promise<SpawnRegistration | null> => {
          const startTime = await getProcessStartTime(pid);
          if (startTime !== null && running) tracked.set(pid, startTime);
          if (options.registryDir === null) return null;
          const spawned = { pid, startTime, command: spec.command, args: spec.args, marker };
          try {
            return await registerSpawn(spawned, { dir: options.registryDir });
          } catch {
            // the registry is a safety net; a run without it still terminates its tree normally
            return null;
          }
        })();

  let walking = false;
  const walkTree = async (): Promise<void> => {
    if (walking || !running || pid === null) return;
    walking = true;
    try {
      const table = await readProcessTable();
      if (!running) return;
      const byPid = new Map(table.map((row) => [row.pid, row] as const));
      // forget members that ended; keep the ones still running with the same start time
      for (const [member, startTime] of tracked) {
        const row = byPid.get(member);
        if (!row || row.startTime !== startTime || !isRunningState(row.state)) tracked.delete(member);
      }
      const roots = [pid, ...tracked.keys()];
      for (const row of collectTree(table, roots)) {
        if (isRunningState(row.state)) tracked.set(row.pid, row.startTime);
      }
      const descendants: ProcessIdentity[] = [];
      for (const [member, startTime] of tracked)
        if (member !== pid) descendants.push({ pid: member, startTime });
      await (await registration)?.setDescendants(descendants);
    } finally {
      walking = false;
    }
  };
  const trackIntervalMs = options.trackIntervalMs ?? DEFAULT_TRACK_INTERVAL_MS;
  const tracker =
    pid !== null && trackIntervalMs > 0
      ? setInterval(() => {
          void walkTree();
        }, trackIntervalMs)
      : null;
  tracker?.unref();
  void childExited.then(() => {
    if (tracker) clearInterval(tracker);
  });

  let termination: Promise<TerminateTreeResult> | null = null;
  const terminateWithResult = (terminateOptions: { graceMs?: number } = {}): Promise<TerminateTreeResult> => {
    termination ??= (async (): Promise<TerminateTreeResult> => {
      if (tracker) clearInterval(tracker);
      if (pid === null) {
        transport.close();
        return { endedBy: "stdin-eof", survivors: [] };
      }
      const known = [...tracked].map(([member, startTime]) => ({ pid: member, startTime }));
      const result = await terminateProcessTree({
        root: { pid, isRunning: () => running, exited: childExited, groupLeader },
        closeStdin: () => {
          transport.endOutput();
          // destroy, not just end: a child that stopped reading must still see EOF now
          child.stdin.destroy();
        },
        known,
        marker,
        stdinGraceMs: options.stdinGraceMs,
        graceMs: terminateOptions.graceMs ?? options.graceMs ?? DEFAULT_TERM_GRACE_MS,
      });
      // keep the entry when something survived, so a later session can try again
      if (result.survivors.length === 0) await (await registration)?.remove();
      return result;
    })();
    return termination;
  };

  return {
    pid,
    transport,
    exit,
    registration,
    stderrTail: () => tail.text(),
    terminate: async (terminateOptions) => {
      await terminateWithResult(terminateOptions);
    },
    terminateWithResult,
  };
}

function failedBeforeStart(spec: LaunchSpec, error: NodeJS.ErrnoException, tail: ByteTail): SpawnedAppServer {
  const input = new PassThrough();
  input.end();
  const transport = new StreamTransport(input, new PassThrough());
  const result: TerminateTreeResult = { endedBy: "stdin-eof", survivors: [] };
  return {
    pid: null,
    transport,
    exit: Promise.resolve(spawnError(spec, error)),
    registration: Promise.resolve(null),
    stderrTail: () => tail.text(),
    terminate: async () => {
      transport.close();
    },
    terminateWithResult: async () => {
      transport.close();
      return result;
    },
  };
}

function spawnError(spec: LaunchSpec, error: NodeJS.ErrnoException): ProcessExit {
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
