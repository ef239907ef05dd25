/**
 * The probe cache's file is read as untrusted: whatever sits at its path (a FIFO, a device, a huge file, entries of
 * the wrong shape) costs at most a cache miss, promptly, and the next save still writes a good file.
 */
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultCacheDir, MAX_CACHE_BYTES, ProbeCache } from "../../src/discovery/probe-cache.js";
import { defaultSpawnRegistryDir } from "../../src/process/spawn-registry.js";
import { tempDir } from "../helpers/temp.js";

const PROBES = [
  { probe: "executable", result: "pass", ms: 0 },
  { probe: "version", result: "pass", ms: 7, reason: "a note" },
];
const GOOD_PROBE = { version: "0.171.0", launch: "direct", probes: PROBES };
const GOOD_SHELL = { path: "/usr/bin:/bin", flags: "-i -l", ms: 20 };

async function stateDir(): Promise<{ dir: string; file: string }> {
  const dir = path.join(await tempDir("probe-cache"), "state");
  await fs.mkdir(dir, { mode: 0o700 });
  return { dir, file: path.join(dir, "probe-cache.json") };
}

async function writeCache(file: string, probes: object, loginShell: object = {}): Promise<void> {
  await fs.writeFile(file, JSON.stringify({ version: 1, probes, loginShell }), { mode: 0o600 });
}

/** Opens the cache, failing the test if that takes more than `ms` (a blocked read would never end). */
async function openWithin(dir: string, ms = 5_000): Promise<ProbeCache> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`ProbeCache.open took over ${ms} ms`)), ms);
  });
  try {
    const cache = await Promise.race([ProbeCache.open(dir), late]);
    expect(cache).not.toBeNull();
    return cache as ProbeCache;
  } finally {
    clearTimeout(timer);
  }
}

describe("ProbeCache: what sits at the file's path", () => {
  it.skipIf(process.platform === "win32")(
    "a FIFO is an empty cache at once, and a save replaces it with a regular file",
    async () => {
      const { dir, file } = await stateDir();
      execFileSync("mkfifo", [file]);
      const cache = await openWithin(dir);
      expect(cache.getProbe("k")).toBeUndefined();
      cache.setProbe("k", GOOD_PROBE as never);
      await cache.save();
      expect((await fs.lstat(file)).isFile()).toBe(true);
      expect((await openWithin(dir)).getProbe("k")).toMatchObject(GOOD_PROBE);
    },
  );

  it.skipIf(process.platform === "win32")(
    "a symlink (to /dev/zero, or to a good cache) is not followed",
    async () => {
      const { dir, file } = await stateDir();
      await fs.symlink("/dev/zero", file);
      expect((await openWithin(dir)).getProbe("k")).toBeUndefined();
      await fs.rm(file);
      const elsewhere = path.join(path.dirname(dir), "elsewhere.json");
      await writeCache(elsewhere, { k: { ...GOOD_PROBE, at: Date.now() } });
      await fs.symlink(elsewhere, file);
      expect((await openWithin(dir)).getProbe("k")).toBeUndefined();
    },
  );

  it("a file over the size cap is an empty cache", async () => {
    const { dir, file } = await stateDir();
    const padding = "x".repeat(MAX_CACHE_BYTES);
    await writeCache(file, { k: { ...GOOD_PROBE, at: Date.now() }, pad: padding });
    expect((await openWithin(dir)).getProbe("k")).toBeUndefined();
  });
});

describe("ProbeCache: entries are checked against the shape written", () => {
  const at = Date.now();
  it.each([
    ["probes null", { ...GOOD_PROBE, probes: null }],
    ["probes holding null", { ...GOOD_PROBE, probes: [null, ...PROBES] }],
    ["a probe of the wrong shape", { ...GOOD_PROBE, probes: [5, { probe: "x" }] }],
    ["a probe with an unknown result", { ...GOOD_PROBE, probes: [{ probe: "x", result: "maybe", ms: 1 }] }],
    ["a probe reason that is not text", { ...GOOD_PROBE, probes: [{ ...PROBES[0], reason: 1 }] }],
    ["a version that is not text", { ...GOOD_PROBE, version: 12 }],
    ["an unknown launch", { ...GOOD_PROBE, launch: "teleport" }],
    ["a launch that is not text", { ...GOOD_PROBE, launch: { x: 1 } }],
    ["an extra key", { ...GOOD_PROBE, extra: true }],
    ["no version", { launch: "direct", probes: PROBES }],
    ["a time that is not a number", { ...GOOD_PROBE, at: "now" }],
    ["null", null],
    ["an array", [GOOD_PROBE]],
  ])("a probe entry with %s is a miss; a good sibling is still a hit", async (_, bad) => {
    const { dir, file } = await stateDir();
    const entry = bad === null || Array.isArray(bad) || "at" in bad ? bad : { ...bad, at };
    await writeCache(file, { bad: entry, good: { ...GOOD_PROBE, at } });
    const cache = await openWithin(dir);
    expect(cache.getProbe("bad")).toBeUndefined();
    expect(cache.getProbe("good")).toEqual({ ...GOOD_PROBE, at });
  });

  it.each([
    ["a path that is not text", { ...GOOD_SHELL, path: 42 }],
    ["flags null", { ...GOOD_SHELL, flags: null }],
    ["a time that is not a number", { ...GOOD_SHELL, ms: "x" }],
    ["a failure that is not text", { ...GOOD_SHELL, failed: true }],
    ["an extra key", { ...GOOD_SHELL, shell: "/bin/sh" }],
  ])("a login-shell entry with %s is a miss", async (_, bad) => {
    const { dir, file } = await stateDir();
    await writeCache(file, {}, { bad: { ...bad, at }, good: { ...GOOD_SHELL, at } });
    const cache = await openWithin(dir);
    expect(cache.getLoginShell("bad")).toBeUndefined();
    expect(cache.getLoginShell("good")).toEqual({ ...GOOD_SHELL, at });
  });

  it("a save drops the malformed entries it finds on disk and keeps the good ones", async () => {
    const { dir, file } = await stateDir();
    await writeCache(
      file,
      { bad: { ...GOOD_PROBE, probes: null, at }, good: { ...GOOD_PROBE, at } },
      { bad: null, good: { ...GOOD_SHELL, at } },
    );
    const cache = await openWithin(dir);
    cache.setProbe("new", GOOD_PROBE as never);
    await expect(cache.save()).resolves.toBeUndefined();
    const written = JSON.parse(await fs.readFile(file, "utf8")) as {
      probes: Record<string, unknown>;
      loginShell: Record<string, unknown>;
    };
    expect(Object.keys(written.probes).sort()).toEqual(["good", "new"]);
    expect(Object.keys(written.loginShell)).toEqual(["good"]);
  });
});

describe("defaultCacheDir", () => {
  it("takes RENNET_STATE_DIR, and a blank one as unset, as the spawn registry does", () => {
    expect(defaultCacheDir({ RENNET_STATE_DIR: "/x/state" })).toBe("/x/state");
    for (const blank of ["", "  "]) {
      const dir = defaultCacheDir({ RENNET_STATE_DIR: blank });
      expect(dir.startsWith(path.join(os.tmpdir(), "rennet-"))).toBe(true);
      expect(path.join(dir, "spawned")).toBe(defaultSpawnRegistryDir({ RENNET_STATE_DIR: blank }));
    }
  });

  it("resolves a relative RENNET_STATE_DIR against the process's current directory, as the spawn registry does", () => {
    const dir = defaultCacheDir({ RENNET_STATE_DIR: "./state" });
    expect(dir).toBe(path.join(process.cwd(), "state"));
    expect(path.join(dir, "spawned")).toBe(defaultSpawnRegistryDir({ RENNET_STATE_DIR: "./state" }));
  });
});
