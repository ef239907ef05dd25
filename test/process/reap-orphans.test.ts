import { spawn, type ChildProcess } from "node:child_process";
import { readdir, readFile, readlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { getProcessStartTime } from "../../src/process/process-table.js";
import { reapOrphans, type ReapReport } from "../../src/process/reap-orphans.js";
import { parseSpawnRecord, registerSpawn } from "../../src/process/spawn-registry.js";
import { cleanUpAfterEach, fixture } from "./process-test-helpers.js";
import { isAlive } from "../helpers/processes.js";
import { tempRegistry } from "../helpers/temp.js";
import { STALE_TEMPORARY_MS } from "../../src/internal/test-hooks.js";

// The reaper among several live Rennet processes: it ends only the trees of owners that are provably gone, and
// concurrent writers and reapers never lose or corrupt an entry.

const { started } = cleanUpAfterEach();

interface OwnedTree {
  parent: number;
  child: number;
  grandchild: number;
  file: string;
}

/** A stand-in Rennet process (registry-owner.js) that spawned one recorded tree; resolves once it is recorded. */
async function startOwner(
  dir: string,
): Promise<{ owner: ChildProcess; tree: OwnedTree; gone: Promise<void> }> {
  const loader = pathToFileURL(fixture("ts-loader.mjs")).href;
  const owner = spawn(process.execPath, ["--import", loader, fixture("registry-owner.js"), dir, "1"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (owner.pid !== undefined) started.add(owner.pid);
  let stderr = "";
  owner.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const gone = new Promise<void>((resolve) => owner.once("exit", () => resolve()));
  if (!owner.stdout) throw new Error("the owner has no stdout");
  const lines = createInterface({ input: owner.stdout })[Symbol.asyncIterator]();
  const next = await Promise.race([lines.next(), gone.then(() => ({ done: true as const, value: "" }))]);
  if (next.done) throw new Error(`the owner ended early: ${stderr}`);
  const tree = JSON.parse(next.value) as OwnedTree;
  for (const pid of [tree.parent, tree.child, tree.grandchild]) started.add(pid);
  return { owner, tree, gone };
}

const treePids = (tree: OwnedTree): number[] => [tree.parent, tree.child, tree.grandchild];

describe.runIf(process.platform === "linux")("reapOrphans among several live Rennet processes", () => {
  it("keeps every live owner's tree, and after one owner is SIGKILLed reaps only that owner's tree", async () => {
    const dir = await tempRegistry();
    const [a, b] = await Promise.all([startOwner(dir), startOwner(dir)]);

    const whileBothLive = await reapOrphans({ dir });
    expect(whileBothLive).toMatchObject({ reaped: 0, kept: 2, killed: [], problems: [] });
    expect([...treePids(a.tree), ...treePids(b.tree)].every(isAlive)).toBe(true);

    a.owner.kill("SIGKILL");
    await a.gone;
    const afterKill = await reapOrphans({ dir });

    expect(afterKill).toMatchObject({ reaped: 1, kept: 1, problems: [] });
    expect(new Set(afterKill.killed)).toEqual(new Set(treePids(a.tree)));
    expect(treePids(a.tree).filter(isAlive)).toEqual([]);
    expect(treePids(b.tree).every(isAlive)).toBe(true);
    expect(await readdir(dir)).toEqual([path.basename(b.tree.file)]);
  });
});

describe("spawn registry under contention", () => {
  it("concurrent registrations and rewrites, read by concurrent reapers, lose and corrupt no entry", async () => {
    const dir = await tempRegistry();
    const count = 48;
    const registrations = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        registerSpawn({ pid: 100_000 + index, startTime: "1", command: "codex", args: [] }, { dir }),
      ),
    );
    const reports: ReapReport[] = [];
    let writing = true;
    const reapers = Array.from({ length: 3 }, async () => {
      while (writing) reports.push(await reapOrphans({ dir }));
    });
    for (let round = 1; round <= 20; round++) {
      await Promise.all(
        registrations.map((registration, index) =>
          registration.setDescendants([{ pid: 200_000 + index, startTime: String(round) }]),
        ),
      );
    }
    writing = false;
    await Promise.all(reapers);

    // every reader saw whole entries of a live owner: nothing reaped, nothing deleted as unreadable
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) expect(report).toMatchObject({ reaped: 0, killed: [], problems: [] });
    const names = (await readdir(dir)).sort();
    expect(names).toEqual(registrations.map((registration) => path.basename(registration.file)).sort());
    for (const [index, registration] of registrations.entries()) {
      const record = parseSpawnRecord(await readFile(registration.file, "utf8"));
      expect(record?.descendants).toEqual([{ pid: 200_000 + index, startTime: "20" }]);
    }
    await Promise.all(registrations.map((registration) => registration.remove()));
    expect(await readdir(dir)).toEqual([]);
  });

  it("leaves an entry of an unknown record version (another Rennet release) in place", async () => {
    const dir = await tempRegistry();
    const file = path.join(dir, "newer.json");
    await writeFile(
      file,
      JSON.stringify({ version: 2, ownerPid: process.pid, shape: "unknown to this code" }),
    );
    const report = await reapOrphans({ dir });
    expect(report).toMatchObject({ reaped: 0, kept: 1, killed: [], problems: [] });
    expect(await readdir(dir)).toEqual(["newer.json"]);
  });

  it("deletes a temporary file left by a writer that died mid-write once it is stale, and keeps a fresh one", async () => {
    const dir = await tempRegistry();
    const stale = path.join(dir, ".1-2-aaaa.json.bbbb.tmp");
    const fresh = path.join(dir, ".1-2-aaaa.json.cccc.tmp");
    await writeFile(stale, "{");
    await writeFile(fresh, "{");
    const past = (Date.now() - STALE_TEMPORARY_MS - 5_000) / 1000;
    await utimes(stale, past, past);
    const report = await reapOrphans({ dir });
    expect(report).toMatchObject({ reaped: 0, kept: 0, killed: [], problems: [] });
    expect(await readdir(dir)).toEqual([path.basename(fresh)]);
  });

  it.runIf(process.platform === "linux")(
    "treats an owner whose pid runs with another start time as gone (the pid was reused)",
    async () => {
      const dir = await tempRegistry();
      const ownStart = await getProcessStartTime(process.pid);
      expect(ownStart).not.toBeNull();
      await writeFile(
        path.join(dir, "reused-owner.json"),
        JSON.stringify({
          version: 1,
          pid: 999_999,
          startTime: "1",
          ownerPid: process.pid,
          ownerStartTime: `${ownStart}9`,
          command: "codex",
          args: [],
          createdAt: new Date(0).toISOString(),
          descendants: [],
        }),
      );
      expect(await reapOrphans({ dir })).toMatchObject({ reaped: 1, kept: 0, problems: [] });
      expect(await readdir(dir)).toEqual([]);
    },
  );

  it.runIf(process.platform === "linux")(
    "leaves an entry written in another pid namespace alone; the same entry from this namespace is reaped",
    async () => {
      const dir = await tempRegistry();
      const sleeper = spawn(process.execPath, [fixture("sleeper.js")], { stdio: "ignore" });
      if (sleeper.pid === undefined) throw new Error("sleeper did not start");
      started.add(sleeper.pid);
      const ended = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
      await new Promise((resolve) => ended.once("exit", resolve));
      const ours = await readlink("/proc/self/ns/pid");
      const startTime = await getProcessStartTime(sleeper.pid);
      const entry = (pidNamespace: string): string =>
        JSON.stringify({
          version: 1,
          pid: sleeper.pid,
          startTime,
          ownerPid: ended.pid,
          ownerStartTime: "1",
          command: "codex",
          args: [],
          createdAt: new Date(0).toISOString(),
          descendants: [],
          pidNamespace,
        });
      await writeFile(path.join(dir, "container.json"), entry("pid:[1]"));
      expect(await reapOrphans({ dir })).toMatchObject({ reaped: 0, kept: 1, killed: [] });
      expect(isAlive(sleeper.pid as number)).toBe(true);
      expect(await readdir(dir)).toEqual(["container.json"]);

      // control: the same entry written here is an orphan
      await writeFile(path.join(dir, "container.json"), entry(ours));
      expect(await reapOrphans({ dir })).toMatchObject({ reaped: 1, kept: 0, killed: [sleeper.pid] });
      expect(await readdir(dir)).toEqual([]);
    },
  );

  it.runIf(process.platform === "linux")("records the owner's pid namespace", async () => {
    const dir = await tempRegistry();
    const registration = await registerSpawn(
      { pid: 4242, startTime: "9", command: "codex", args: [] },
      { dir },
    );
    const record = parseSpawnRecord(await readFile(registration.file, "utf8"));
    expect(record?.pidNamespace).toBe(await readlink("/proc/self/ns/pid"));
    await registration.remove();
  });
});
