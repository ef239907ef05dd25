import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverCodex } from "../../../src/codex/discovery/discover.js";
import { sandboxPerTest } from "../../helpers/discovery-sandbox.js";

const sb = sandboxPerTest();

describe("discoverCodex: probe cache", () => {
  it("a warm discovery reuses the cached probes; touching the file makes it probe again", async () => {
    const codex = await sb().fakeCodex(await sb().dir("a"));
    const env = sb().env({ PATH: path.dirname(codex) });
    const cold = await discoverCodex(sb().options(env));
    expect(cold.candidates[0]?.cached).toBe(false);
    expect(cold.cacheFile).toBe(path.join(sb().cacheDir, "probe-cache.json"));
    const probesAfterCold = sb().invocations().length;
    expect(probesAfterCold).toBe(2); // --version and app-server

    const warm = await discoverCodex(sb().options(env));
    expect(warm.candidates[0]?.cached).toBe(true);
    expect(warm.chosen).toEqual(cold.chosen);
    expect(sb().invocations().length).toBe(probesAfterCold);

    const later = new Date(Date.now() + 5_000);
    await fs.utimes(codex, later, later);
    const touched = await discoverCodex(sb().options(env));
    expect(touched.candidates[0]?.cached).toBe(false);
    expect(sb().invocations().length).toBe(probesAfterCold + 2);

    const refreshed = await discoverCodex(sb().options(env, { cache: "refresh" }));
    expect(refreshed.candidates[0]?.cached).toBe(false);
    expect(sb().invocations().length).toBe(probesAfterCold + 4);
  });

  it("a binary copied over it with its size and mtime kept (cp -p) is probed again: the change time differs", async () => {
    const codex = await sb().fakeCodex(await sb().dir("a"), { version: "0.171.0" });
    const other = await sb().fakeCodex(await sb().dir("b"), { version: "0.172.0" });
    const built = new Date(Date.now() - 60_000);
    await fs.utimes(codex, built, built);
    const env = sb().env({ PATH: path.dirname(codex) });
    expect((await discoverCodex(sb().options(env))).chosen?.version).toBe("0.171.0");
    // what `cp -p other codex` does: the same inode written over, the source's mtime set on it
    await fs.copyFile(other, codex);
    await fs.utimes(codex, built, built);
    const before = await fs.stat(other);
    expect((await fs.stat(codex)).size).toBe(before.size);
    const copied = await discoverCodex(sb().options(env));
    expect(copied.candidates[0]?.cached).toBe(false);
    expect(copied.chosen?.version).toBe("0.172.0");
  });

  it("failures are not cached", async () => {
    const codex = await sb().fakeCodex(await sb().dir("a"), { mode: "handshake-exit" });
    const env = sb().env({ PATH: path.dirname(codex) });
    await discoverCodex(sb().options(env));
    await discoverCodex(sb().options(env));
    expect(sb().invocations().length).toBe(4);
  });

  it("an unreadable or corrupt cache file is an empty cache", async () => {
    const codex = await sb().fakeCodex(await sb().dir("a"));
    await fs.mkdir(sb().cacheDir, { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(sb().cacheDir, "probe-cache.json"), "{not json");
    const report = await discoverCodex(sb().options(sb().env({ PATH: path.dirname(codex) })));
    expect(report.available).toBe(true);
    const written = JSON.parse(await fs.readFile(path.join(sb().cacheDir, "probe-cache.json"), "utf8")) as {
      version: number;
    };
    expect(written.version).toBe(1);
  });
});

describe("discoverCodex: a probe cache entry written under the documented key", () => {
  it("is a hit: the key parts and their order are pinned", async () => {
    const codex = await sb().fakeCodex(await sb().dir("a"));
    const stat = await fs.stat(codex);
    // the key's parts in their order, for a plain binary found on PATH with no login shell: [npm-native binary,
    // "probe/1", locus, path, realpath, size, mtime, inode, change time, launch env, launch modes, cwd of a
    // directory-dependent shim]
    const key = JSON.stringify([
      null,
      "probe/1",
      { type: "native" },
      codex,
      codex,
      stat.size,
      stat.mtimeMs,
      stat.ino,
      stat.ctimeMs,
      {},
      ["direct"],
      null,
    ]);
    const probes = [
      { probe: "executable", result: "pass", ms: 0 },
      { probe: "version", result: "pass", ms: 7 },
      { probe: "handshake", result: "pass", ms: 70 },
    ];
    await fs.mkdir(sb().cacheDir, { recursive: true, mode: 0o700 });
    await fs.writeFile(
      path.join(sb().cacheDir, "probe-cache.json"),
      `${JSON.stringify({
        version: 1,
        probes: { [key]: { version: "0.150.0", launch: "direct", probes, at: Date.now() } },
        loginShell: {},
      })}\n`,
    );
    const report = await discoverCodex(sb().options(sb().env({ PATH: path.dirname(codex) })));
    expect(report.candidates[0]).toMatchObject({ path: codex, cached: true, version: "0.150.0", probes });
    expect(report.chosen).toEqual({
      launch: { type: "native", command: codex },
      path: codex,
      version: "0.150.0",
      source: "process-path",
    });
    expect(sb().invocations()).toEqual([]);
  });
});
