import { TEST_CODEX_BIN } from "../helpers/codex-bin.js";
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isRunningState } from "../../src/process/process-table-parse.js";
import { readProcessTable } from "../../src/process/process-table.js";
import { createStdioLauncher } from "../../src/process/stdio-launcher.js";
import { cleanUpAfterEach } from "./process-test-helpers.js";
import { isAlive } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import { makeTempDir } from "../helpers/temp.js";
import { snapshotProcessTree } from "../../src/internal/test-hooks.js";

const CODEX_BIN = TEST_CODEX_BIN;
/**
 * The native binary an npm install's launcher runs: from 0.100 in the platform package
 * (`@openai/codex-linux-x64/vendor/<triple>/…/codex`), up to 0.98 inside `@openai/codex/vendor/<triple>/codex/codex`.
 */
const NATIVE_BINARY = /\/(?:codex-linux-[^/]+\/.*|codex\/vendor\/[^/]+\/codex)\/codex$/;
const { started, cleanups } = cleanUpAfterEach();

function exeOf(pid: number): string {
  return readlinkSync(`/proc/${pid}/exe`);
}

describe.runIf(process.platform === "linux" && existsSync(CODEX_BIN))("the real codex app-server", () => {
  it("runs as launcher (node) → native codex, and terminate leaves no process of the tree", async () => {
    const home = await makeTempDir("codex-home");
    const registry = await makeTempDir("codex-registry");
    cleanups.push(home.remove, registry.remove);
    // a long stdin grace: on a loaded machine the launcher's node and the native binary may take longer than the
    // default to exit on EOF, and the exit code asserted below is then SIGTERM's
    const launch = createStdioLauncher({ registryDir: registry.dir, stdinGraceMs: 5_000 });
    const server = launch({
      command: CODEX_BIN,
      args: ["app-server"],
      env: { ...process.env, CODEX_HOME: home.dir },
    });
    if (server.pid === null) throw new Error(`codex did not start: ${JSON.stringify(await server.exit)}`);
    const rootPid = server.pid;
    started.add(rootPid);

    const initialized = new Promise<Record<string, unknown>>((resolve, reject) => {
      server.transport.start({
        frame: (frame) => {
          if (frame.id === 1) resolve(frame);
        },
        invalid: () => {},
        closed: (reason) => reject(new Error(`codex closed stdout (${reason.type}): ${server.stderrTail()}`)),
      });
    });
    server.transport.send({
      id: 1,
      method: "initialize",
      params: { clientInfo: { name: "rennet", title: "Rennet", version: "0.0.0-test" } },
    });
    expect(await initialized).toHaveProperty("result.userAgent");

    const tree = (await snapshotProcessTree(rootPid)).filter((row) => isRunningState(row.state));
    for (const row of tree) started.add(row.pid);
    const launcherExpected = typeof (process as { execve?: unknown }).execve !== "function";
    if (launcherExpected) {
      // Node without process.execve: codex.js stays as a node parent of the native binary
      expect(path.basename(exeOf(rootPid))).toMatch(/^node/);
      expect(readFileSync(`/proc/${rootPid}/cmdline`, "utf8")).toContain("codex");
      const natives = tree.filter((row) => row.ppid === rootPid);
      expect(natives).toHaveLength(1);
      expect(exeOf(natives[0]?.pid ?? 0)).toMatch(NATIVE_BINARY);
    } else {
      // newer Node: codex.js execve()s into the native binary, so the root is codex itself
      expect(exeOf(rootPid)).toMatch(NATIVE_BINARY);
    }
    await waitFor(async () => (await readdir(registry.dir)).length === 1, "the registry entry");

    const result = await server.terminateWithResult();

    // codex itself exits on stdin EOF (code 0 below); a `git` it started detached (ppid 1, same process group) may
    // still run then on a loaded machine, and the tree walk ends it with SIGTERM
    expect(result.survivors).toEqual([]);
    expect(["stdin-eof", "sigterm"]).toContain(result.endedBy);
    expect(tree.map((row) => row.pid).filter(isAlive)).toEqual([]);
    const group = (await readProcessTable()).filter(
      (row) => row.pgid === rootPid && isRunningState(row.state),
    );
    expect(group).toEqual([]);
    expect(await server.exit).toEqual({ type: "exited", code: 0, signal: null });
    expect(await readdir(registry.dir)).toEqual([]);
  });
});
