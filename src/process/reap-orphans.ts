import { lstat, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { processExists } from "./process-exists.js";
import { isRunningState, type ProcessIdentity } from "./process-table-parse.js";
import {
  processTableSource,
  readOwnPidNamespace,
  readProcessInfo,
  type ProcessTableSource,
} from "./process-table.js";
import {
  defaultSpawnRegistryDir,
  ensureSafeDir,
  parseSpawnRecord,
  SPAWN_RECORD_VERSION,
  type SpawnRecord,
  type SpawnRegistryOptions,
} from "./spawn-registry.js";
import { settledWithin } from "./settled-within.js";
import { killProcessTrees } from "./terminate-tree.js";
import { isRecord } from "../json-record.js";
import { readBoundedFile } from "../read-bounded-file.js";

/** What {@link reapOrphans} did. */
export interface ReapReport {
  /** Entries whose owner was dead: their processes were killed and the entries deleted. */
  reaped: number;
  /** Entries left in place: their owner still runs (or may: see {@link reapOrphans}), or another release wrote them. */
  kept: number;
  /** Pids that received SIGKILL. */
  killed: number[];
  /** Things that did not stop the reap: unreadable entries, processes that could not be killed, an unsafe dir. */
  problems: string[];
}

/**
 * How old a leftover temporary file (`.<entry>.<random>.tmp`) must be before the reaper deletes it. A writer
 * renames its temporary file within milliseconds; one that stays is from a writer that died mid-write.
 */
export const STALE_TEMPORARY_MS = 60_000;

/**
 * How long a session start waits for the reaper before it spawns its child anyway. A reap takes milliseconds on a
 * local file system; on one that stopped answering (a hard-mounted share whose server went away) it never ends.
 */
const START_REAP_WAIT_MS = 2000;

/** The largest entry read: a record with thousands of descendants stays well under it. */
const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * Cleans up after Rennet processes that died without terminating their children (call it at session start).
 * For each entry whose owner is gone, SIGKILLs the recorded child and recorded descendants that still run with
 * their recorded start times, plus their current descendants, then deletes the entry. Never rejects.
 *
 * Owner liveness: an owner counts as dead only on positive evidence, read for that one pid after its entry was
 * read: the pid does not exist (`ESRCH`), is a zombie, or runs with another start time than recorded (the pid
 * was reused). Anything that cannot be read counts as alive, so an incomplete process table never ends a live
 * Rennet's tree. An entry written in another pid namespace (a container sharing the directory) is left alone:
 * its pids and start times cannot be checked from here. A reused pid of a child or descendant (start time
 * differs) is never signalled, nor is this process or an ancestor of it (a reaper can run inside an orphaned
 * tree, as an agent's command: that entry is kept for a later reaper), and no walk goes through this process
 * into the trees it started. Entries of a record version this code does not know belong to another Rennet
 * release and are left alone; unparseable entries and stale temporary files (older than
 * {@link STALE_TEMPORARY_MS}) are deleted.
 */
export async function reapOrphans(
  options: SpawnRegistryOptions & { platform?: NodeJS.Platform } = {},
): Promise<ReapReport> {
  const dir = options.dir ?? defaultSpawnRegistryDir();
  const platform = options.platform ?? process.platform;
  const report: ReapReport = { reaped: 0, kept: 0, killed: [], problems: [] };
  let names: string[];
  try {
    await ensureSafeDir(dir, false);
    names = (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") report.problems.push((error as Error).message);
    return report;
  }
  const source = processTableSource(platform);
  const namespace = names.length > 0 ? readOwnPidNamespace(source) : null;
  for (const name of names) {
    const file = path.join(dir, name);
    if (isTemporaryName(name)) {
      await removeIfStale(file);
      continue;
    }
    if (!name.endsWith(".json")) continue;
    // bounded and never blocking: a FIFO or device named like an entry is a problem, not a hang
    const read = await readBoundedFile(file, MAX_RECORD_BYTES);
    if (read.type !== "read") {
      if (read.reason !== "missing") report.problems.push(`${file}: ${read.problem}`);
      continue;
    }
    const text = read.bytes.toString("utf8");
    const record = parseSpawnRecord(text);
    if (!record) {
      if (hasUnknownVersion(text)) {
        report.kept++;
        continue;
      }
      report.problems.push(`${file}: not a spawn record; deleted`);
      await rm(file, { force: true }).catch(() => undefined);
      continue;
    }
    const foreign =
      record.pidNamespace !== undefined && namespace !== null && record.pidNamespace !== namespace;
    if (foreign || (await ownerRuns(record, source))) {
      report.kept++;
      continue;
    }
    const roots: ProcessIdentity[] = [...record.descendants];
    if (record.startTime !== null) roots.unshift({ pid: record.pid, startTime: record.startTime });
    const { killed, survivors, spared } = await killProcessTrees(roots, {
      platform,
      ...(record.marker !== undefined ? { marker: record.marker } : {}),
    });
    report.killed.push(...killed);
    for (const survivor of survivors) {
      report.problems.push(`pid ${survivor.pid} from ${file} could not be killed`);
    }
    for (const ancestor of spared) {
      report.problems.push(
        `pid ${ancestor.pid} from ${file} runs this reaper (it is this process or an ancestor); not signalled`,
      );
    }
    if (spared.length > 0) {
      // a reaper outside the tree ends the rest once this process is gone
      report.kept++;
      continue;
    }
    await rm(file, { force: true }).catch(() => undefined);
    report.reaped++;
  }
  return report;
}

/**
 * {@link reapOrphans} with the default registry, for a session about to spawn: waits for it at most two
 * seconds, then lets it go on unwaited (a reap never touches the entries of a running owner, so the new child
 * is safe from it). Never rejects.
 */
export async function reapBeforeSpawn(): Promise<void> {
  await settledWithin(reapOrphans(), START_REAP_WAIT_MS);
}

/** See {@link reapOrphans}: false only on positive evidence that the owner is gone. */
async function ownerRuns(record: SpawnRecord, source: ProcessTableSource): Promise<boolean> {
  if (!processExists(record.ownerPid)) return false;
  if (source === "none") return true;
  const info = await readProcessInfo(record.ownerPid, source);
  // gone since the check above, or unreadable: only a second ESRCH proves the former
  if (!info) return processExists(record.ownerPid);
  if (!isRunningState(info.state)) return false;
  return record.ownerStartTime === null || info.startTime === record.ownerStartTime;
}

/** A record some other release of Rennet wrote: a JSON object whose `version` is another number than ours. */
function hasUnknownVersion(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) && typeof value.version === "number" && value.version !== SPAWN_RECORD_VERSION;
  } catch {
    return false;
  }
}

function isTemporaryName(name: string): boolean {
  return name.startsWith(".") && name.endsWith(".tmp");
}

async function removeIfStale(file: string): Promise<void> {
  try {
    const stats = await lstat(file);
    if (stats.isFile() && Date.now() - stats.mtimeMs > STALE_TEMPORARY_MS) await rm(file, { force: true });
  } catch {
    // renamed or removed meanwhile: nothing to clean
  }
}
