import { lstat, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ProcessIdentity } from "./process-table-parse.js";
import { getProcessStartTime, readOwnPidNamespace } from "./process-table.js";
import { RennetError } from "../errors.js";
import { isRecord } from "../json-record.js";
import { makeDirectories } from "../make-directories.js";
import { randomHex } from "../random-id.js";
import { stateDirOverride } from "../state-dir.js";

/**
 * One spawned tree as written to disk: the child, the Rennet process that owns it, and the descendants the owner
 * saw last. What a reaper can achieve with it: the child's current tree (if the child still runs with the same
 * start time) and every recorded descendant that still runs with its recorded start time, plus their current
 * descendants. A process that was forked and orphaned between two of the owner's tree walks is not recorded;
 * an agent that ends its commands' process groups when its stdin closes covers most of that gap.
 */
/** The record format this code writes and reads; a reaper leaves records of other versions alone. */
export const SPAWN_RECORD_VERSION = 1;

export interface SpawnRecord {
  version: typeof SPAWN_RECORD_VERSION;
  pid: number;
  /** Null when the start time could not be read; such a pid is never signalled by the reaper. */
  startTime: string | null;
  ownerPid: number;
  ownerStartTime: string | null;
  command: string;
  args: string[];
  createdAt: string;
  descendants: ProcessIdentity[];
  /** The tree's `RENNET_TREE_ID`: the reaper also kills running processes that carry it. */
  marker?: string;
  /**
   * The owner's pid namespace (Linux, `pid:[<inode>]`). Its pids mean nothing in another namespace: a reaper
   * there leaves the entry alone.
   */
  pidNamespace?: string;
}

/** The registry directory is not safe or not usable (owned by someone else, writable by others, not a directory). */
export class SpawnRegistryError extends RennetError<"SPAWN_REGISTRY_UNAVAILABLE"> {
  constructor(message: string, options?: { cause?: unknown }) {
    super("SPAWN_REGISTRY_UNAVAILABLE", message, options);
    this.name = "SpawnRegistryError";
  }
}

/** Where to find the registry: `<RENNET_STATE_DIR (see {@link stateDirOverride}) or <tmpdir>/rennet-<user>>/spawned`. */
export function resolveSpawnRegistryDir(input: {
  env: NodeJS.ProcessEnv;
  tmpdir: string;
  user: string;
}): string {
  const stateDir = stateDirOverride(input.env) ?? path.join(input.tmpdir, `rennet-${input.user}`);
  return path.join(stateDir, "spawned");
}

/** The registry directory for this process: {@link resolveSpawnRegistryDir} with the OS temp dir and user id. */
export function defaultSpawnRegistryDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolveSpawnRegistryDir({ env, tmpdir: os.tmpdir(), user: currentUser() });
}

/** Parses one registry file; null when it is not a well-formed {@link SpawnRecord}. Pure. */
export function parseSpawnRecord(text: string): SpawnRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value) || value.version !== SPAWN_RECORD_VERSION) return null;
  const { pid, startTime, ownerPid, ownerStartTime, command, args, createdAt, descendants } = value;
  if (!isPid(pid) || !isPid(ownerPid) || !isNullableString(startTime) || !isNullableString(ownerStartTime))
    return null;
  if (typeof command !== "string" || typeof createdAt !== "string") return null;
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) return null;
  if (!Array.isArray(descendants)) return null;
  const identities: ProcessIdentity[] = [];
  for (const entry of descendants) {
    if (!isRecord(entry) || !isPid(entry.pid) || typeof entry.startTime !== "string") return null;
    identities.push({ pid: entry.pid, startTime: entry.startTime });
  }
  return {
    version: SPAWN_RECORD_VERSION,
    pid,
    startTime,
    ownerPid,
    ownerStartTime,
    command,
    args,
    createdAt,
    descendants: identities,
    // only a plain hex token is ever used as a marker; anything else is ignored rather than scanned for
    ...(typeof value.marker === "string" && /^[0-9a-f]{8,64}$/.test(value.marker)
      ? { marker: value.marker }
      : {}),
    ...(typeof value.pidNamespace === "string" && /^pid:\[\d+\]$/.test(value.pidNamespace)
      ? { pidNamespace: value.pidNamespace }
      : {}),
  };
}

/** Where the registry is; defaults to {@link defaultSpawnRegistryDir}. */
export interface SpawnRegistryOptions {
  dir?: string;
}

/** A live entry of the registry, owned by this process. */
export interface SpawnRegistration {
  readonly file: string;
  /** Replaces the recorded descendants (writes only when the set changed). Never rejects. */
  setDescendants(descendants: readonly ProcessIdentity[]): Promise<void>;
  /** Deletes the entry; later calls to either method do nothing. Never rejects. */
  remove(): Promise<void>;
}

/**
 * Writes a registry entry for a child this process just spawned, owned by this process. Rejects with
 * {@link SpawnRegistryError} when the directory cannot be used safely.
 */
export async function registerSpawn(
  spawned: {
    pid: number;
    startTime: string | null;
    command: string;
    args: readonly string[];
    marker?: string;
  },
  options: SpawnRegistryOptions = {},
): Promise<SpawnRegistration> {
  const dir = options.dir ?? defaultSpawnRegistryDir();
  await ensureSafeDir(dir, true);
  const namespace = ownPidNamespace();
  const record: SpawnRecord = {
    version: SPAWN_RECORD_VERSION,
    pid: spawned.pid,
    startTime: spawned.startTime,
    ownerPid: process.pid,
    ownerStartTime: await ownStartTime(),
    command: spawned.command,
    args: [...spawned.args],
    createdAt: new Date().toISOString(),
    descendants: [],
    ...(spawned.marker !== undefined ? { marker: spawned.marker } : {}),
    ...(namespace !== null ? { pidNamespace: namespace } : {}),
  };
  const file = path.join(dir, `${process.pid}-${spawned.pid}-${randomHex(4)}.json`);
  try {
    await writeAtomically(file, record);
  } catch (error) {
    throw new SpawnRegistryError(
      `Could not write the spawn registry entry ${file}: ${(error as Error).message}. ` +
        "Check that the directory is writable, or point RENNET_STATE_DIR elsewhere.",
      { cause: error },
    );
  }
  // serialize writes so an update never recreates a removed entry
  let queue: Promise<void> = Promise.resolve();
  let removed = false;
  let recordedKey = "";
  return {
    file,
    setDescendants(descendants) {
      const list = descendants.map(({ pid, startTime }) => ({ pid, startTime }));
      const key = list
        .map(({ pid, startTime }) => `${pid}@${startTime}`)
        .sort()
        .join(",");
      queue = queue.then(async () => {
        if (removed || key === recordedKey) return;
        recordedKey = key;
        await writeAtomically(file, { ...record, descendants: list }).catch(() => undefined);
      });
      return queue;
    },
    remove() {
      queue = queue.then(async () => {
        if (removed) return;
        removed = true;
        await rm(file, { force: true }).catch(() => undefined);
      });
      return queue;
    },
  };
}

/**
 * Throws {@link SpawnRegistryError} unless `dir` is a directory of this user that no one else can write to
 * (created with mode 0700 when `create`), in directories that no one else can replace it in (see
 * {@link unsafeAncestor}). A missing dir rejects with `ENOENT` when not `create`.
 */
export async function ensureSafeDir(dir: string, create: boolean): Promise<void> {
  if (create) {
    try {
      await makeDirectories(dir, 0o700);
    } catch (error) {
      throw new SpawnRegistryError(
        `Could not create the spawn registry directory ${dir}: ${(error as Error).message}. ` +
          "Point RENNET_STATE_DIR at a writable directory.",
        { cause: error },
      );
    }
  }
  const stats = await lstat(dir);
  const uid = process.getuid?.();
  const unsafe = !stats.isDirectory()
    ? "is not a directory"
    : uid !== undefined && stats.uid !== uid
      ? `is owned by uid ${stats.uid}, not by this user (${uid})`
      : process.platform !== "win32" && (stats.mode & 0o022) !== 0
        ? "is writable by other users"
        : null;
  if (unsafe) {
    throw new SpawnRegistryError(
      `The spawn registry directory ${dir} ${unsafe}; Rennet will not use it. ` +
        "Remove it or point RENNET_STATE_DIR at a private directory.",
    );
  }
  const above = uid !== undefined && process.platform !== "win32" ? await unsafeAncestor(dir, uid) : null;
  if (above) {
    throw new SpawnRegistryError(
      `The spawn registry directory ${dir} is inside ${above}: another user could replace the registry. ` +
        "Rennet will not use it; point RENNET_STATE_DIR at a private directory.",
    );
  }
}

/**
 * The first directory above `dir` in which another user could rename `dir` (or the directory holding it) away
 * and put one of theirs in its place, as `<directory>, which <why>`; null when there is none. Safe are
 * directories owned by this user or root that no one else can write to or that have the sticky bit (like `/tmp`:
 * only an entry's owner may rename it), reached through no symlink of another user.
 */
async function unsafeAncestor(dir: string, uid: number): Promise<string | null> {
  let child = path.resolve(dir);
  for (let parent = path.dirname(child); parent !== child; child = parent, parent = path.dirname(parent)) {
    const link = await lstat(parent);
    const stats = link.isSymbolicLink() ? await stat(parent) : link;
    const foreign = [link.uid, stats.uid].find((owner) => owner !== uid && owner !== 0);
    if (foreign !== undefined) return `${parent}, which is owned by uid ${foreign}`;
    if (writableByOthers(stats) && (stats.mode & 0o1000) === 0)
      return `${parent}, which is writable by other users`;
  }
  return null;
}

/**
 * Whether users other than this one may write to a directory: anyone, or a group other than this user's own
 * primary group (a user-private group, as `umask 002` systems give every directory, holds this user alone).
 */
function writableByOthers(stats: { mode: number; gid: number }): boolean {
  if ((stats.mode & 0o002) !== 0) return true;
  return (stats.mode & 0o020) !== 0 && stats.gid !== process.getgid?.();
}

/**
 * Writes the whole entry to a private temporary file in the same directory, then renames it over `file`: a
 * reader (a reaper in another process) sees the old entry or the new one, never a partial one.
 */
async function writeAtomically(file: string, record: SpawnRecord): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomHex(4)}.tmp`);
  try {
    await writeFile(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

let ownPidNamespaceValue: string | null | undefined;
function ownPidNamespace(): string | null {
  if (ownPidNamespaceValue === undefined) ownPidNamespaceValue = readOwnPidNamespace();
  return ownPidNamespaceValue;
}

let ownStartTimePromise: Promise<string | null> | null = null;
function ownStartTime(): Promise<string | null> {
  ownStartTimePromise ??= getProcessStartTime(process.pid);
  return ownStartTimePromise;
}

function currentUser(): string {
  const uid = process.getuid?.();
  if (uid !== undefined) return String(uid);
  try {
    return os.userInfo().username.replace(/[^A-Za-z0-9_.-]/g, "_") || "user";
  } catch {
    return "user";
  }
}

function isPid(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === "string";
}
