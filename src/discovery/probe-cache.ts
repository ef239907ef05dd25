import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isRecord } from "../json-record.js";
import { makeDirectories } from "../make-directories.js";
import { randomHex } from "../random-id.js";
import { readBoundedFile } from "../read-bounded-file.js";
import { stateDirOverride } from "../state-dir.js";
import {
  isCachedLoginShell,
  isCachedProbe,
  type CachedLoginShell,
  type CachedProbe,
} from "./probe-cache-entries.js";

export type { CachedLoginShell, CachedProbe } from "./probe-cache-entries.js";

/** How long a failed login shell is remembered. */
export const FAILED_LOGIN_SHELL_TTL_MS = 60 * 60 * 1000;

interface CacheData {
  version: 1;
  probes: Record<string, CachedProbe>;
  loginShell: Record<string, CachedLoginShell>;
}

const MAX_ENTRIES = 256;
/**
 * The largest cache file read (a full cache of {@link MAX_ENTRIES} entries per table is well under 2 MB); a larger
 * one is read as empty, and the next save replaces it.
 */
export const MAX_CACHE_BYTES = 4 * 1024 * 1024;
export const DEFAULT_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

/** `$RENNET_STATE_DIR` as {@link stateDirOverride} reads it (as for the spawn registry), else `<tmpdir>/rennet-<uid>`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv): string {
  const override = stateDirOverride(env);
  if (override !== undefined) return override;
  const uid =
    typeof process.getuid === "function" ? String(process.getuid()) : safeName(os.userInfo().username);
  return path.join(os.tmpdir(), `rennet-${uid}`);
}

/**
 * A stable key for any JSON-able list of parts: their JSON text, compared whole, so two identities never share
 * an entry. Not a digest: hashing would load node's crypto (~5 ms) before every session that discovers its executable.
 */
export function cacheKey(parts: readonly unknown[]): string {
  return JSON.stringify(parts);
}

/**
 * Probe results keyed by what identifies a candidate (path, real path, size, mtime, inode, launch environment),
 * in one JSON file. Reads are tolerant and bounded (see `readData`: whatever the file holds costs at most a cache
 * miss, never a hang or an error); writes go through a temp file and a rename, merged with what other processes
 * wrote meanwhile. Entries expire after a TTL.
 */
export class ProbeCache {
  readonly file: string;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #data: CacheData;
  #dirty = false;

  private constructor(file: string, data: CacheData, ttlMs: number, now: () => number) {
    this.file = file;
    this.#data = data;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /**
   * Opens `<dir>/probe-cache.json`, creating `dir` (mode 0700). Returns null when the directory is not
   * ours or is writable by others: a cache there could be planted.
   */
  static async open(
    dir: string,
    options: { ttlMs?: number; now?: () => number } = {},
  ): Promise<ProbeCache | null> {
    try {
      await makeDirectories(dir, 0o700);
      const stat = await fs.stat(dir);
      if (process.platform !== "win32") {
        const uid = process.getuid?.();
        if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0)
          return null;
      }
    } catch {
      return null;
    }
    const file = path.join(dir, "probe-cache.json");
    return new ProbeCache(
      file,
      await readData(file),
      options.ttlMs ?? DEFAULT_CACHE_TTL_MS,
      options.now ?? Date.now,
    );
  }

  getProbe(key: string): CachedProbe | undefined {
    return this.#get(this.#data.probes, key);
  }

  setProbe(key: string, entry: Omit<CachedProbe, "at">): void {
    this.#set(this.#data.probes, key, entry);
  }

  getLoginShell(key: string): CachedLoginShell | undefined {
    const entry = this.#get(this.#data.loginShell, key);
    if (entry?.failed !== undefined && this.#now() - entry.at > FAILED_LOGIN_SHELL_TTL_MS) return undefined;
    return entry;
  }

  setLoginShell(key: string, entry: Omit<CachedLoginShell, "at">): void {
    this.#set(this.#data.loginShell, key, entry);
  }

  /** Writes the changes, if any. Never throws: a cache that cannot be written only costs speed. */
  async save(): Promise<void> {
    if (!this.#dirty) return;
    const onDisk = await readData(this.file);
    const merged: CacheData = {
      version: 1,
      probes: this.#prune({ ...onDisk.probes, ...this.#data.probes }),
      loginShell: this.#prune({ ...onDisk.loginShell, ...this.#data.loginShell }),
    };
    const temp = `${this.file}.${process.pid}.${randomHex(4)}.tmp`;
    try {
      await fs.writeFile(temp, `${JSON.stringify(merged)}\n`, { mode: 0o600 });
      await fs.rename(temp, this.file);
      this.#data = merged;
      this.#dirty = false;
    } catch {
      await fs.rm(temp, { force: true }).catch(() => {});
    }
  }

  /** A fresh entry of one table (own properties only: the file is data). */
  #get<E extends { at: number }>(entries: Record<string, E>, key: string): E | undefined {
    const entry = Object.hasOwn(entries, key) ? entries[key] : undefined;
    return entry && this.#fresh(entry.at) ? entry : undefined;
  }

  #set<E extends { at: number }>(entries: Record<string, E>, key: string, entry: Omit<E, "at">): void {
    entries[key] = { ...entry, at: this.#now() } as E;
    this.#dirty = true;
  }

  #fresh(at: number): boolean {
    const age = this.#now() - at;
    return age >= 0 && age < this.#ttlMs;
  }

  #prune<T extends { at: number }>(entries: Record<string, T>): Record<string, T> {
    const kept = Object.entries(entries)
      .filter(([, entry]) => this.#fresh(entry.at))
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, MAX_ENTRIES);
    return Object.fromEntries(kept);
  }
}

/**
 * The cache file's tables, keeping only entries of exactly the shape written: a missing, unreadable, oversized or
 * non-regular file (a FIFO, a device, a symlink), invalid JSON or another version is an empty cache, and a
 * malformed entry is left out, so the file's content can only ever cost a cache miss. Never rejects.
 */
async function readData(file: string): Promise<CacheData> {
  const empty: CacheData = { version: 1, probes: {}, loginShell: {} };
  const read = await readBoundedFile(file, MAX_CACHE_BYTES);
  if (read.type !== "read") return empty;
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return empty;
  }
  if (!isRecord(parsed) || parsed.version !== 1) return empty;
  return {
    version: 1,
    probes: validEntries(parsed.probes, isCachedProbe),
    loginShell: validEntries(parsed.loginShell, isCachedLoginShell),
  };
}

/** The entries of one table that pass `isEntry`, as own properties (a `__proto__` key stays a plain key). */
function validEntries<E>(table: unknown, isEntry: (value: unknown) => value is E): Record<string, E> {
  if (!isRecord(table)) return {};
  return Object.fromEntries(Object.entries(table).filter((pair): pair is [string, E] => isEntry(pair[1])));
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, "_");
}
