/**
 * Drift comparisons cached per binary identity (real path, size, mtime) and per Rennet expectation table, in
 * `drift-cache.json` beside discovery's probe cache. Reads are tolerant and bounded (a missing, corrupt or non-regular
 * file, or one larger than {@link MAX_DRIFT_CACHE_BYTES}, is empty: never a hang); writes go through a temp file
 * and a rename. A binary that changes gets a new key, so entries never go stale.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { isRecord } from "../../../json-record.js";
import { makeDirectories } from "../../../make-directories.js";
import type { DriftComparison } from "./drift-compare.js";
import { randomHex } from "../../../random-id.js";
import { readBoundedFile } from "../../../read-bounded-file.js";

const FILE = "drift-cache.json";
/** Entries kept; the oldest go first. */
const MAX_ENTRIES = 50;
/** The largest cache file read ({@link MAX_ENTRIES} comparisons of a few hundred rows each stay well under it). */
const MAX_DRIFT_CACHE_BYTES = 8 * 1024 * 1024;

interface Entry {
  storedAt: number;
  version: string | null;
  comparison: DriftComparison;
}

export interface DriftCacheHit {
  version: string | null;
  comparison: DriftComparison;
}

async function readEntries(file: string): Promise<Record<string, Entry>> {
  const out = Object.create(null) as Record<string, Entry>;
  const read = await readBoundedFile(file, MAX_DRIFT_CACHE_BYTES);
  if (read.type !== "read") return out;
  try {
    const parsed: unknown = JSON.parse(read.bytes.toString("utf8"));
    const entries = isRecord(parsed) && isRecord(parsed.entries) ? parsed.entries : {};
    for (const [key, value] of Object.entries(entries)) {
      if (isRecord(value) && isRecord(value.comparison) && typeof value.storedAt === "number") {
        out[key] = value as unknown as Entry;
      }
    }
  } catch {
    // invalid JSON: an empty cache
  }
  return out;
}

/** The cached comparison for `key`, or null. */
export async function readDriftCache(dir: string, key: string): Promise<DriftCacheHit | null> {
  const entries = await readEntries(path.join(dir, FILE));
  const entry = Object.hasOwn(entries, key) ? entries[key] : undefined;
  return entry ? { version: entry.version, comparison: entry.comparison } : null;
}

/** Stores a comparison; failures to write are ignored (the cache is an optimisation). */
export async function writeDriftCache(dir: string, key: string, hit: DriftCacheHit): Promise<void> {
  const file = path.join(dir, FILE);
  try {
    await makeDirectories(dir);
    const entries = await readEntries(file);
    entries[key] = { storedAt: Date.now(), ...hit };
    const kept = Object.entries(entries)
      .sort(([, a], [, b]) => b.storedAt - a.storedAt)
      .slice(0, MAX_ENTRIES);
    const temp = `${file}.${process.pid}.${randomHex(4)}.tmp`;
    await fs.writeFile(temp, JSON.stringify({ version: 1, entries: Object.fromEntries(kept) }), "utf8");
    await fs.rename(temp, file);
  } catch {
    // a read-only or full state directory only costs the next run a schema generation
  }
}
