import { isRunningState, type ProcessIdentity } from "./process-table-parse.js";
import type { PidBaseline } from "./pid-window.js";
import { getProcessStartTime, readProcessTable, type TreeTableScope } from "./process-table.js";
import { collectTree } from "./process-tree.js";
import { registerSpawn, type SpawnRegistration } from "./spawn-registry.js";
import { DEFAULT_TERM_GRACE_MS, terminateProcessTree, type TerminateTreeResult } from "./terminate-tree.js";

/** How often a child's tree is walked and recorded while it runs, by default. */
export const DEFAULT_TRACK_INTERVAL_MS = 2000;

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
   * the registry entry unless something survived. Idempotent: every call shares one run. Never rejects.
   */
  terminate(options?: { graceMs?: number }): Promise<TerminateTreeResult>;
  /**
   * For a child that exited on its own with its output closed: stops tracking and deletes the registry entry
   * without signalling anything. Never rejects.
   */
  release(): Promise<void>;
}

/**
 * Registers the child in the spawn registry and re-walks its tree every `trackIntervalMs` while it runs, so
 * that `terminate` (and a later reaper) also reaches descendants that were orphaned since.
 */
export function trackChildTree(root: ChildTreeRoot, options: ChildTreeOptions = {}): ChildTree {
  const { pid } = root;
  const tracked = new Map<number, string>();
  const registration = (async (): Promise<SpawnRegistration | null> => {
    const startTime = await getProcessStartTime(pid);
    if (startTime !== null && root.isRunning()) tracked.set(pid, startTime);
    if (options.registryDir === null) return null;
    const spawned = { pid, startTime, command: root.command, args: root.args, marker: root.marker };
    try {
      return await registerSpawn(spawned, { dir: options.registryDir });
    } catch {
      // the registry is a safety net; a run without it still terminates its tree normally
      return null;
    }
  })();

  let walking = false;
  const walkTree = async (): Promise<void> => {
    if (walking || !root.isRunning()) return;
    walking = true;
    try {
      const scope: TreeTableScope | undefined = root.pidBaseline
        ? { rootPid: pid, baseline: root.pidBaseline, include: tracked.keys() }
        : undefined;
      const table = await readProcessTable(undefined, scope);
      if (!root.isRunning()) return;
      const byPid = new Map(table.map((row) => [row.pid, row] as const));
      // forget members that ended; keep the ones still running with the same start time
      for (const [member, startTime] of tracked) {
        const row = byPid.get(member);
        if (!row || row.startTime !== startTime || !isRunningState(row.state)) tracked.delete(member);
      }
      for (const row of collectTree(table, [pid, ...tracked.keys()])) {
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
    trackIntervalMs > 0
      ? setInterval(() => {
          void walkTree();
        }, trackIntervalMs)
      : null;
  tracker?.unref();
  const stopTracking = (): void => {
    if (tracker) clearInterval(tracker);
  };
  void root.exited.then(stopTracking);

  let termination: Promise<TerminateTreeResult> | null = null;
  return {
    registration,
    terminate(terminateOptions = {}) {
      termination ??= (async (): Promise<TerminateTreeResult> => {
        stopTracking();
        const known = [...tracked].map(([member, startTime]) => ({ pid: member, startTime }));
        const result = await terminateProcessTree({
          root: {
            pid,
            isRunning: () => root.isRunning(),
            exited: root.exited,
            groupLeader: root.groupLeader,
            pidBaseline: root.pidBaseline ?? null,
          },
          closeStdin: () => root.closeStdin(),
          known,
          marker: root.marker,
          stdinGraceMs: options.stdinGraceMs,
          graceMs: terminateOptions.graceMs ?? options.graceMs ?? DEFAULT_TERM_GRACE_MS,
        });
        // keep the entry when something survived, so a later session can try again
        if (result.survivors.length === 0) await (await registration)?.remove();
        return result;
      })();
      return termination;
    },
    async release() {
      stopTracking();
      await (await registration)?.remove();
    },
  };
}
