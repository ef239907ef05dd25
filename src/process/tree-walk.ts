import { isRunningState, type ProcessIdentity } from "./process-table-parse.js";
import type { PidBaseline } from "./pid-window.js";
import { readProcessTable, type TreeTableScope } from "./process-table.js";
import { collectTree } from "./process-tree.js";

/** The root of a walked tree, as {@link TreeWalker} needs it. */
export interface WalkedRoot {
  pid: number;
  /** Lets the table reads skip processes older than the root (see `readPidBaseline`). */
  pidBaseline?: PidBaseline | null;
  /** True while the root runs; a walk of a stopped root changes nothing. */
  isRunning(): boolean;
}

/**
 * The members of one child's tree, kept by walking the process table every `intervalMs` while the root runs:
 * a descendant stays a member (by pid and start time) after it was orphaned out of the tree, until it ends.
 * After each walk `onWalked` gets the descendants found (the registry records them).
 */
export class TreeWalker {
  readonly #root: WalkedRoot;
  readonly #onWalked: (descendants: ProcessIdentity[]) => Promise<void>;
  /** pid → start time of every member still running, the root included once its start time is known. */
  readonly #tracked = new Map<number, string>();
  #walking = false;
  #timer: NodeJS.Timeout | null = null;

  constructor(root: WalkedRoot, onWalked: (descendants: ProcessIdentity[]) => Promise<void>) {
    this.#root = root;
    this.#onWalked = onWalked;
  }

  /** Records the root itself, once its start time is read. */
  trackRoot(startTime: string): void {
    if (this.#root.isRunning()) this.#tracked.set(this.#root.pid, startTime);
  }

  /** Walks every `intervalMs` (0: never) until {@link stop}; the timer does not keep the process alive. */
  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    this.#timer = setInterval(() => {
      void this.walk();
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Every member known so far, the root included. */
  members(): ProcessIdentity[] {
    return [...this.#tracked].map(([pid, startTime]) => ({ pid, startTime }));
  }

  /** One walk: forget members that ended, add the running processes of the tree. One walk at a time. */
  async walk(): Promise<void> {
    const root = this.#root;
    if (this.#walking || !root.isRunning()) return;
    this.#walking = true;
    try {
      const scope: TreeTableScope | undefined = root.pidBaseline
        ? { rootPid: root.pid, baseline: root.pidBaseline, include: this.#tracked.keys() }
        : undefined;
      const table = await readProcessTable(undefined, scope);
      if (!root.isRunning()) return;
      const byPid = new Map(table.map((row) => [row.pid, row] as const));
      // forget members that ended; keep the ones still running with the same start time
      for (const [member, startTime] of this.#tracked) {
        const row = byPid.get(member);
        if (!row || row.startTime !== startTime || !isRunningState(row.state)) this.#tracked.delete(member);
      }
      for (const row of collectTree(table, [root.pid, ...this.#tracked.keys()])) {
        if (isRunningState(row.state)) this.#tracked.set(row.pid, row.startTime);
      }
      await this.#onWalked(this.members().filter((member) => member.pid !== root.pid));
    } finally {
      this.#walking = false;
    }
  }
}
