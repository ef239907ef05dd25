import { spawn } from "node:child_process";
import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { getProcessStartTime } from "../../src/process/process-table.js";
import { reapOrphans } from "../../src/process/reap-orphans.js";
import { parseSpawnRecord, registerSpawn, type SpawnRecord } from "../../src/process/spawn-registry.js";
import { cleanUpAfterEach, fixture } from "./process-test-helpers.js";
import { isAlive } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import { tempRegistry } from "../helpers/temp.js";
import { SpawnRegistryError, resolveSpawnRegistryDir } from "../../src/internal/test-hooks.js";

const { started, cleanups } = cleanUpAfterEach();

/** Starts sleeper.js directly (not through the launcher) and returns its pid once it runs. */
async function startSleeper(): Promise<number> {
  const child = spawn(process.execPath, [fixture("sleeper.js")], { stdio: "ignore" });
  const pid = child.pid;
  if (pid === undefined) throw new Error("sleeper did not start");
  started.add(pid);
  cleanups.push(async () => {
    child.kill("SIGKILL");
  });
  return pid;
}

function record(fields: Partial<SpawnRecord> & Pick<SpawnRecord, "pid">): SpawnRecord {
  return {
    version: 1,
    startTime: null,
    ownerPid: process.pid,
    ownerStartTime: null,
    command: "codex",
    args: ["app-server"],
    createdAt: new Date(0).toISOString(),
    descendants: [],
    ...fields,
  };
}

describe("resolveSpawnRegistryDir", () => {
  it("defaults to <tmpdir>/rennet-<user>/spawned", () => {
    expect(resolveSpawnRegistryDir({ env: {}, tmpdir: "/tmp", user: "501" })).toBe(
      path.join("/tmp", "rennet-501", "spawned"),
    );
  });

  it("honours RENNET_STATE_DIR, ignoring a blank one", () => {
    expect(resolveSpawnRegistryDir({ env: { RENNET_STATE_DIR: "/state" }, tmpdir: "/tmp", user: "1" })).toBe(
      path.join("/state", "spawned"),
    );
    expect(resolveSpawnRegistryDir({ env: { RENNET_STATE_DIR: " " }, tmpdir: "/tmp", user: "1" })).toBe(
      path.join("/tmp", "rennet-1", "spawned"),
    );
  });

  it("resolves a relative RENNET_STATE_DIR against the process's current directory", () => {
    expect(resolveSpawnRegistryDir({ env: { RENNET_STATE_DIR: "state" }, tmpdir: "/tmp", user: "1" })).toBe(
      path.join(process.cwd(), "state", "spawned"),
    );
  });
});

describe("parseSpawnRecord", () => {
  it("round-trips a record and rejects malformed ones", () => {
    const good = record({ pid: 5, startTime: "77", descendants: [{ pid: 6, startTime: "78" }] });
    expect(parseSpawnRecord(JSON.stringify(good))).toEqual(good);
    expect(parseSpawnRecord("{")).toBeNull();
    expect(parseSpawnRecord(JSON.stringify({ ...good, version: 2 }))).toBeNull();
    expect(parseSpawnRecord(JSON.stringify({ ...good, pid: -1 }))).toBeNull();
    expect(parseSpawnRecord(JSON.stringify({ ...good, descendants: [{ pid: 6 }] }))).toBeNull();
    expect(parseSpawnRecord(JSON.stringify({ ...good, args: [1] }))).toBeNull();
  });
});

describe("registerSpawn", () => {
  it("writes one private file per child, updates descendants, and removes it", async () => {
    const dir = await tempRegistry();
    const registration = await registerSpawn(
      { pid: 4242, startTime: "9", command: "codex", args: ["app-server"] },
      { dir },
    );
    const written = parseSpawnRecord(await readFile(registration.file, "utf8"));
    expect(written).toMatchObject({ pid: 4242, startTime: "9", ownerPid: process.pid, descendants: [] });
    expect(written?.ownerStartTime).toBe(await getProcessStartTime(process.pid));
    await registration.setDescendants([{ pid: 4243, startTime: "10" }]);
    expect(parseSpawnRecord(await readFile(registration.file, "utf8"))?.descendants).toEqual([
      { pid: 4243, startTime: "10" },
    ]);
    await registration.remove();
    await registration.setDescendants([{ pid: 4244, startTime: "11" }]);
    expect(await readdir(dir)).toEqual([]);
  });

  it.runIf(process.platform !== "win32")("refuses a directory other users can write to", async () => {
    const dir = await tempRegistry();
    await chmod(dir, 0o777);
    const attempt = registerSpawn({ pid: 1, startTime: null, command: "x", args: [] }, { dir });
    await expect(attempt).rejects.toBeInstanceOf(SpawnRegistryError);
    await expect(attempt).rejects.toMatchObject({ code: "SPAWN_REGISTRY_UNAVAILABLE" });
    const report = await reapOrphans({ dir });
    expect(report.problems.join()).toContain("writable by other users");
  });

  it.runIf(process.platform === "linux")(
    "a registry under /proc (mkdir there is ENOENT) is SPAWN_REGISTRY_UNAVAILABLE at once, not a hang",
    async () => {
      // Node's recursive mkdir loops forever there: the turn's end, which waits for the entry, would never come
      const dir = "/proc/rennet-no-such-state/spawned";
      const attempt = registerSpawn({ pid: 1, startTime: null, command: "x", args: [] }, { dir });
      const hung = new Promise((resolve) => setTimeout(() => resolve("still pending after 2 s"), 2_000));
      const outcome = await Promise.race([
        attempt.then(
          () => "registered",
          (error: unknown) => error,
        ),
        hung,
      ]);
      expect(outcome).toMatchObject({ code: "SPAWN_REGISTRY_UNAVAILABLE" });
    },
  );

  it.runIf(process.platform !== "win32")(
    "refuses a registry whose state directory lets other users swap the registry for their own, and a reaper there signals nothing",
    async () => {
      // another user could rename `spawned` away and put a link to a directory of planted entries in its place
      const stateDir = await tempRegistry();
      const dir = path.join(stateDir, "spawned");
      await mkdir(dir, { mode: 0o700 });
      await chmod(stateDir, 0o777);
      const sleeper = await startSleeper();
      const ended = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
      await new Promise((resolve) => ended.once("exit", resolve));
      const planted = record({
        pid: sleeper,
        startTime: await getProcessStartTime(sleeper),
        ownerPid: ended.pid,
      });
      await writeFile(path.join(dir, "planted.json"), JSON.stringify(planted));

      const attempt = registerSpawn({ pid: 1, startTime: null, command: "x", args: [] }, { dir });
      await expect(attempt).rejects.toMatchObject({ code: "SPAWN_REGISTRY_UNAVAILABLE" });
      await expect(attempt).rejects.toThrow(`${stateDir}, which is writable by other users`);
      const report = await reapOrphans({ dir });
      expect(report).toMatchObject({ reaped: 0, killed: [] });
      expect(report.problems.join()).toContain(`${stateDir}, which is writable by other users`);
      expect(isAlive(sleeper)).toBe(true);

      // the sticky bit keeps others from renaming what is ours: such a directory (like /tmp) is fine, and so is
      // one only this user's own primary group may write to (`umask 002` with user-private groups)
      for (const mode of [0o1777, 0o775]) {
        await chmod(stateDir, mode);
        const registration = await registerSpawn(
          { pid: 1, startTime: null, command: "x", args: [] },
          { dir },
        );
        await registration.remove();
      }
    },
  );
});

describe.runIf(process.platform === "linux")("reapOrphans", () => {
  it("reaps the tree of a Rennet process that was SIGKILLed mid-run, including orphaned descendants", async () => {
    const dir = await tempRegistry();
    const loader = pathToFileURL(fixture("ts-loader.mjs")).href;
    const owner = spawn(process.execPath, ["--import", loader, fixture("registry-owner.js"), dir, "2"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (owner.pid !== undefined) started.add(owner.pid);
    let stderr = "";
    owner.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const ownerGone = new Promise((resolve) => owner.once("exit", resolve));
    const lines = createInterface({ input: owner.stdout })[Symbol.asyncIterator]();
    const trees: Array<{ parent: number; child: number; grandchild: number; file: string }> = [];
    while (trees.length < 2) {
      const next = await Promise.race([
        lines.next(),
        ownerGone.then(() => ({ done: true as const, value: "" })),
      ]);
      if (next.done) throw new Error(`the owner ended early: ${stderr}`);
      const tree = JSON.parse(next.value) as (typeof trees)[number];
      for (const pid of [tree.parent, tree.child, tree.grandchild]) started.add(pid);
      trees.push(tree);
    }
    const [alive, orphaned] = trees;
    if (!alive || !orphaned) throw new Error("two trees expected");
    owner.kill("SIGKILL");
    await ownerGone;
    // the second tree's root dies too: its child and grandchild are reparented, reachable only via the record
    process.kill(orphaned.parent, "SIGKILL");
    await waitFor(() => !isAlive(orphaned.parent), "the second root to die");
    const survivorsBefore = [
      alive.parent,
      alive.child,
      alive.grandchild,
      orphaned.child,
      orphaned.grandchild,
    ];
    expect(survivorsBefore.every(isAlive)).toBe(true);

    const report = await reapOrphans({ dir });

    expect(report).toMatchObject({ reaped: 2, kept: 0, problems: [] });
    expect(new Set(report.killed)).toEqual(new Set(survivorsBefore));
    expect(survivorsBefore.filter(isAlive)).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it("never signals a reused pid (start time differs) and still deletes the stale entry", async () => {
    const dir = await tempRegistry();
    const pid = await startSleeper();
    const other = await startSleeper();
    const realStart = await getProcessStartTime(pid);
    expect(realStart).not.toBeNull();
    await writeFile(
      path.join(dir, "stale.json"),
      JSON.stringify(
        record({
          pid,
          startTime: `${realStart}0`,
          ownerStartTime: "not-this-process",
          descendants: [{ pid: other, startTime: "1" }],
        }),
      ),
    );
    const report = await reapOrphans({ dir });
    expect(report).toMatchObject({ reaped: 1, kept: 0, killed: [], problems: [] });
    expect(isAlive(pid) && isAlive(other)).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });

  it("leaves entries of a live owner alone, and deletes unreadable ones", async () => {
    const dir = await tempRegistry();
    const pid = await startSleeper();
    const entry = record({
      pid,
      startTime: await getProcessStartTime(pid),
      ownerStartTime: await getProcessStartTime(process.pid),
    });
    await writeFile(path.join(dir, "live.json"), JSON.stringify(entry));
    await writeFile(path.join(dir, "broken.json"), "{not json");
    await mkdir(path.join(dir, "ignored-subdir"));
    const report = await reapOrphans({ dir });
    expect(report).toMatchObject({ reaped: 0, kept: 1, killed: [] });
    expect(report.problems).toHaveLength(1);
    expect(isAlive(pid)).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(["ignored-subdir", "live.json"]);
  });

  it("does nothing when the registry directory does not exist", async () => {
    const dir = await tempRegistry();
    expect(await reapOrphans({ dir: path.join(dir, "missing") })).toEqual({
      reaped: 0,
      kept: 0,
      killed: [],
      problems: [],
    });
  });
});
