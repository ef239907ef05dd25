import { PassThrough } from "node:stream";
import { StreamTransport } from "../jsonl/stream-transport.js";
import type { StdioChild, LaunchSpec, Launcher } from "./stdio-child.js";
import type { ChildTreeOptions } from "./child-tree.js";
import { spawnChild } from "./spawn-child.js";
import type { SpawnRegistration } from "./spawn-registry.js";
import type { TerminateTreeResult } from "./terminate-tree.js";

/**
 * Options of {@link createStdioLauncher}: the tree options of {@link ChildTreeOptions} (registry, tracking,
 * stdin grace, SIGTERM grace) plus the size of the stderr tail. Every field has a default suited to a
 * long-lived agent child.
 */
export interface StdioLauncherOptions extends ChildTreeOptions {
  /** How much of stderr `stderrTail()` keeps, in bytes. */
  stderrTailBytes?: number;
  /** Longest stdout line accepted, in bytes of UTF-8 (a longer one is reported, never buffered). Default 16 MiB. */
  maxLineBytes?: number;
}

/** A started child with the details tests and diagnostics need beyond {@link StdioChild}. */
export interface SpawnedStdioChild extends StdioChild {
  /** Like `terminate`, resolving with how the tree ended. Shares the single run with `terminate`. */
  terminateWithResult(options?: { graceMs?: number }): Promise<TerminateTreeResult>;
  /** Resolves once the registry entry is written (null: registry disabled or unusable). */
  readonly registration: Promise<SpawnRegistration | null>;
}

/**
 * Makes a {@link Launcher} that starts the child through `spawnChild` (new process group, tree marker, spawn
 * registry, periodic tree walk) with piped stdio and speaks JSONL over its stdin/stdout. `terminate()` closes
 * stdin, then ends the whole tree; `exit` resolves once the child has exited and its stderr is drained, so
 * `stderrTail()` then holds its last words.
 */
export function createStdioLauncher(
  options: StdioLauncherOptions = {},
): (spec: LaunchSpec) => SpawnedStdioChild {
  return (spec) => launch(spec, options);
}

/** Spawns any {@link LaunchSpec} with the default options. Never throws. */
export const spawnStdioChild: Launcher = createStdioLauncher();

function launch(spec: LaunchSpec, options: StdioLauncherOptions): SpawnedStdioChild {
  let transport: StreamTransport | null = null;
  const child = spawnChild(spec, {
    ...options,
    stdin: "pipe",
    onCloseStdin: () => transport?.endOutput(),
  });
  const started = new StreamTransport(child.stdout, child.stdin ?? new PassThrough(), {
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
  });
  transport = started;
  let termination: Promise<TerminateTreeResult> | null = null;
  const terminateWithResult = (terminateOptions?: { graceMs?: number }): Promise<TerminateTreeResult> => {
    termination ??= child.terminate(terminateOptions).then((result) => {
      // without a process nothing will close the transport's input: close it here
      if (child.pid === null) started.close();
      return result;
    });
    return termination;
  };
  return {
    pid: child.pid,
    transport: started,
    exit: child.exit,
    registration: child.registration,
    stderrTail: () => child.stderrTail(),
    terminate: async (terminateOptions) => {
      await terminateWithResult(terminateOptions);
    },
    terminateWithResult,
  };
}
