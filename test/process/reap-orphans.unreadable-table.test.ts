import { spawn } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { getProcessStartTime } from "../../src/process/process-table.js";
import { reapOrphans } from "../../src/process/reap-orphans.js";
import { cleanUpAfterEach, fixture } from "./process-test-helpers.js";
import { isAlive } from "../helpers/processes.js";
import { tempDir } from "../helpers/temp.js";

// A whole-table read can come back incomplete (EMFILE while opening /proc/<pid>/stat, a failing `ps`); that must
// never make a live owner look dead. Every whole-table read in this file returns nothing.
vi.mock(import("../../src/process/process-table.js"), async (importOriginal) => ({
  ...(await importOriginal()),
  readProcessTable: vi.fn(async () => []),
}));

const { started } = cleanUpAfterEach();

function entry(fields: {
  pid: number;
  startTime: string | null;
  ownerPid: number;
  ownerStartTime: string | null;
}) {
  return JSON.stringify({
    version: 1,
    ...fields,
    command: "codex",
    args: [],
    createdAt: new Date(0).toISOString(),
    descendants: [],
  });
}

describe.runIf(process.platform === "linux")("reapOrphans with an empty process table", () => {
  it("keeps the entry of a live owner (an incomplete table is no evidence of death)", async () => {
    const dir = await tempDir("reap-table");
    const sleeper = spawn(process.execPath, [fixture("sleeper.js")], { stdio: "ignore" });
    if (sleeper.pid === undefined) throw new Error("sleeper did not start");
    started.add(sleeper.pid);
    const fields = {
      pid: sleeper.pid,
      startTime: await getProcessStartTime(sleeper.pid),
      ownerPid: process.pid,
      ownerStartTime: await getProcessStartTime(process.pid),
    };
    await writeFile(path.join(dir, "live.json"), entry(fields));

    const report = await reapOrphans({ dir });

    expect(report).toMatchObject({ reaped: 0, kept: 1, killed: [] });
    expect(await readdir(dir)).toEqual(["live.json"]);
    expect(isAlive(sleeper.pid)).toBe(true);
  });

  it("still reaps the entry of an owner whose pid does not exist", async () => {
    const dir = await tempDir("reap-table");
    const ended = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((resolve) => ended.once("exit", resolve));
    const ownerPid = ended.pid;
    if (ownerPid === undefined) throw new Error("no pid");
    await writeFile(
      path.join(dir, "dead.json"),
      entry({ pid: 999_999, startTime: "1", ownerPid, ownerStartTime: "1" }),
    );

    expect(await reapOrphans({ dir })).toMatchObject({ reaped: 1, kept: 0 });
    expect(await readdir(dir)).toEqual([]);
  });
});
