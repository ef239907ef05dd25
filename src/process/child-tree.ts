import type { PidBaseline } from "./pid-window.js";
import { getProcessStartTime } from "./process-table.js";
import { TreeWalker } from "./tree-walk.js";
import { registerSpawn, type SpawnRegistration } from "./spawn-registry.js";
import { settledWithin } from "./settled-within.js";
import { DEFAULT_TERM_GRACE_MS, terminateProcessTree, type TerminateTreeResult } from "./terminate-tree.js";

/** How often a child's tree is walked and recorded while it runs, by default. */
const DEFAULT_TRACK_INTERVAL_MS = 2000;

/**
 * How long the end of a tree waits for its registry entry to be deleted. A local file system takes
 * milliseconds; one that stopped answering (a hard-mounted share whose server went away) never does, and the
 * end of a turn must not wait for it: the deletion goes on without being waited for.
 */
const REGISTRY_REMOVAL_WAIT_MS = 1000;

/** How the tree of a spawned child is recorded and ended. Every field has a default. */
export interface ChildTreeOptions {
  /** Spawn registry directory; null disables the registry. Default: `defaultSpawnRegistryDir()` at spawn time. */
  registryDir?: string | null;
  /** Period of the tree walk that records descendants (for `terminate` and the registry); 0 disables it. */
  trackIntervalMs?: number;
  /** How long the child gets to exit after its stdin closes (see `DEFAULT_STDIN_GRACE_MS`). */
  stdinGraceMs?: number;
  /** SIGTERM → SIGKILL grace used when `terminate()` is called without one (see `DEFAULT_TERM_GRACE_MS`). */
  graceMs?: number;
}

/** The started child at the root of a tree, as {@link trackChildTree} needs it. */
export interface ChildTreeRoot {
  pid: number;
  command: string;
  args: readonly string[];
  /** The tree's `RENNET_TREE_ID`. */
  marker: string;
  /** The child leads its own process group. */
  groupLeader: boolean;
  /** Read just before the spawn: lets the tree's table reads skip older processes (see `readPidBaseline`). */
  pidBaseline?: PidBaseline | null;
  /** True until the child's `exit` event. */
  isRunning(): boolean;
  /** Resolves at the child's `exit` event. */
  exited: Promise<void>;
  /** Closes the child's stdin (the first step of termination). Must not throw. */
  closeStdin(): void;
}

/** The recorded tree of one child. */
export interface ChildTree {
  /** Resolves once the registry entry is written (null: registry disabled or unusable). */
  readonly registration: Promise<SpawnRegistration | null>;
  /**
   * Ends the whole tree with {@link terminateProcessTree} (stdin EOF, SIGTERM, frozen SIGKILL), then deletes
   * the registry entry unless something survived (waiting at most a second for the registry). Idempotent: every
   * call shares one run. Never rejects.
   */
  terminate(options?: { graceMs?: number }): Promise<TerminateTreeResult>;
  /**
   * For a child that exited on its own with its output closed: stops tracking and deletes the registry entry
   * (waiting at most a second for the registry) without signalling anything. Never rejects.
   */
  release(): Promise<void>;
}

/**
 * Registers the child in the spawn registry and re-walks its tree every `trackIntervalMs` while it runs, so
 * that `terminate` (and a later reaper) also reaches descendants that were orphaned since.
 */
export function trackChildTree(root: ChildTreeRoot, options: ChildTreeOptions = {}): ChildTree {
  let registration: Promise<SpawnRegistration | null> = Promise.resolve(null);
  // never rejects: `register` and `remove` do not
  const unregister = async (): Promise<void> => {
    await settledWithin(
      registration.then((entry) => entry?.remove()),
      REGISTRY_REMOVAL_WAIT_MS,
    );
  };
  const walker = new TreeWalker(root, async (descendants) => {
    await (await registration)?.setDescendants(descendants);
  });
  registration = register(root, walker, options.registryDir);
  walker.start(options.trackIntervalMs ?? DEFAULT_TRACK_INTERVAL_MS);
  void root.exited.then(() => walker.stop());

  let termination: Promise<TerminateTreeResult> | null = null;
  const terminate = async (graceMs: number | undefined): Promise<TerminateTreeResult> => {
    walker.stop();
    const result = await terminateProcessTree({
      root: {
        pid: root.pid,
        isRunning: () => root.isRunning(),
        exited: root.exited,
        groupLeader: root.groupLeader,
        pidBaseline: root.pidBaseline ?? null,
      },
      closeStdin: () => root.closeStdin(),
      known: walker.members(),
      marker: root.marker,
      stdinGraceMs: options.stdinGraceMs,
      graceMs: graceMs ?? options.graceMs ?? DEFAULT_TERM_GRACE_MS,
    });
    // keep the entry when something survived, so a later session can try again
    if (result.survivors.length === 0) await unregister();
    return result;
  };
  return {
    registration,
    terminate(terminateOptions = {}) {
      termination ??= terminate(terminateOptions.graceMs);
      return termination;
    },
    async release() {
      walker.stop();
      await unregister();
    },
  };
}

/** Reads the root's start time (it becomes a tracked member) and writes its registry entry, unless disabled. */
async function register(
  root: ChildTreeRoot,
  walker: TreeWalker,
  registryDir: string | null | undefined,
): Promise<SpawnRegistration | null> {
  const startTime = await getProcessStartTime(root.pid);
  if (startTime !== null) walker.trackRoot(startTime);
  if (registryDir === null) return null;
  const spawned = { pid: root.pid, startTime, command: root.command, args: root.args, marker: root.marker };
  try {
    return await registerSpawn(spawned, { dir: registryDir });
  } catch {
    // the registry is a safety net; a run without it still terminates its tree normally
    return null;
  }
}
