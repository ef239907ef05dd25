import { spawn } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { getProcessStartTime, TREE_MARKER_VARIABLE } from "../../src/process/process-table.js";
import type { ReapReport } from "../../src/process/reap-orphans.js";
import { cleanUpAfterEach, fixture } from "./process-test-helpers.js";
import { isAlive, processState } from "../helpers/processes.js";
import { tempRegistry } from "../helpers/temp.js";
import { waitFor } from "../helpers/wait.js";

// A Rennet process can run inside a tree whose owner died (an agent's command that runs Rennet, or a script
// that uses the library): its reaper then finds an orphaned tree that contains the reaper itself.

const { started } = cleanUpAfterEach();

describe.runIf(process.platform === "linux")("reapOrphans run from inside the orphaned tree", () => {
  it("never signals its own process, its ancestors or its own children; ends the rest and keeps the entry", async () => {
    const dir = await tempRegistry();
    const ended = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((resolve) => ended.once("exit", resolve));
    const marker = "0123456789abcdef01234567";
    // the orphaned tree: a shell (the recorded child) running a sibling command and a Rennet process
    const script = '"$0" "$1" & echo "$!"; "$0" --import "$2" "$3" "$4"; wait';
    const loader = pathToFileURL(fixture("ts-loader.mjs")).href;
    const shell = spawn(
      "sh",
      ["-c", script, process.execPath, fixture("sleeper.js"), loader, fixture("reaper-inside-tree.js"), dir],
      { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, [TREE_MARKER_VARIABLE]: marker } },
    );
    if (shell.pid === undefined || !shell.stdout || !shell.stdin) throw new Error("sh did not start");
    started.add(shell.pid);
    const lines = createInterface({ input: shell.stdout })[Symbol.asyncIterator]();
    const sibling = Number((await lines.next()).value);
    started.add(sibling);
    const { reaper, ownChild } = JSON.parse(String((await lines.next()).value)) as Record<string, number>;
    if (reaper === undefined || ownChild === undefined) throw new Error("the reaper did not start");
    started.add(reaper);
    started.add(ownChild);
    await writeFile(
      path.join(dir, "orphan.json"),
      JSON.stringify({
        version: 1,
        pid: shell.pid,
        startTime: await getProcessStartTime(shell.pid),
        ownerPid: ended.pid,
        ownerStartTime: "1",
        command: "sh",
        args: [],
        createdAt: new Date(0).toISOString(),
        descendants: [],
        marker,
      }),
    );

    shell.stdin.write("reap\n");
    const answer = await Promise.race([
      lines.next(),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
    ]);

    expect(answer, `no report: the reaper is in state ${processState(reaper)}`).not.toBeNull();
    const report = JSON.parse(String(answer?.value)) as ReapReport;
    expect(report.killed).toEqual([sibling]);
    await waitFor(() => !isAlive(sibling), "the sibling command to end");
    expect([shell.pid, reaper, ownChild].filter((pid) => !isAlive(pid))).toEqual([]);
    expect(report).toMatchObject({ reaped: 0, kept: 1 });
    expect(report.problems).toEqual([
      expect.stringContaining(`pid ${shell.pid} from ${path.join(dir, "orphan.json")} runs this reaper`),
    ]);
    // kept for a reaper outside the tree, which ends the rest once this process is gone
    expect(await readdir(dir)).toEqual(["orphan.json"]);
  });
});
