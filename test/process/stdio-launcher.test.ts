import { chmod, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createStdioLauncher, spawnStdioChild } from "../../src/process/stdio-launcher.js";
import { parseSpawnRecord } from "../../src/process/spawn-registry.js";
import { cleanUpAfterEach, firstFrame, fixture, pidOf } from "./process-test-helpers.js";
import { isAlive } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import { tempDir } from "../helpers/temp.js";

const { started } = cleanUpAfterEach();

const launch = createStdioLauncher({ registryDir: null });
const node = process.execPath;

async function startTree(args: string[], launcher = launch) {
  const server = launcher({ command: node, args: [fixture("tree-parent.js"), ...args] });
  const frame = await firstFrame(server.transport, () => server.stderrTail());
  const pids = [pidOf(frame, "parent"), pidOf(frame, "child"), pidOf(frame, "grandchild")];
  for (const pid of pids) started.add(pid);
  expect(pids[0]).toBe(server.pid);
  return { server, pids };
}

describe.runIf(process.platform === "linux")("spawnStdioChild on a real process tree", () => {
  it("ends a child that exits on stdin EOF without signalling it (fast path)", async () => {
    const server = launch({ command: node, args: [fixture("echo-until-eof.js")] });
    expect(server.transport.send({ hello: 1 })).toBe(true);
    expect(await firstFrame(server.transport)).toEqual({ hello: 1 });
    const result = await server.terminateWithResult();
    expect(result).toEqual({ endedBy: "stdin-eof", survivors: [] });
    expect(await server.exit).toEqual({ type: "exited", code: 0, signal: null });
  });

  it("kills a detached (own session) child and its grandchild when the root ignores stdin EOF", async () => {
    const { server, pids } = await startTree(["--on-eof=ignore"]);
    expect(pids.every(isAlive)).toBe(true);
    const result = await server.terminateWithResult();
    expect(result).toEqual({ endedBy: "sigterm", survivors: [] });
    expect(pids.filter(isAlive)).toEqual([]);
    expect(await server.exit).toEqual({ type: "exited", code: null, signal: "SIGTERM" });
  });

  it("kills the orphans a root leaves behind when it exits on stdin EOF (snapshot taken before)", async () => {
    const { server, pids } = await startTree(["--on-eof=exit"]);
    const result = await server.terminateWithResult();
    expect(result.survivors).toEqual([]);
    expect(pids.filter(isAlive)).toEqual([]);
    // the root itself exited on EOF; only its orphaned descendants needed a signal
    expect(await server.exit).toEqual({ type: "exited", code: 0, signal: null });
  });

  it("SIGKILLs a tree that ignores SIGTERM once the grace has passed", async () => {
    const { server, pids } = await startTree(["--on-eof=ignore", "--ignore-term"]);
    const result = await server.terminateWithResult({ graceMs: 200 });
    expect(result).toEqual({ endedBy: "sigkill", survivors: [] });
    expect(pids.filter(isAlive)).toEqual([]);
    expect(await server.exit).toEqual({ type: "exited", code: null, signal: "SIGKILL" });
  });

  it("also kills processes forked during the grace and the kill (freeze before SIGKILL)", async () => {
    const dir = await tempDir("spawner");
    const pidFile = path.join(dir, "pids");
    await writeFile(pidFile, "");
    const server = launch({ command: node, args: [fixture("spawner.js"), pidFile] });
    if (server.pid !== null) started.add(server.pid);
    await firstFrame(server.transport, () => server.stderrTail());
    const result = await server.terminateWithResult({ graceMs: 150 });
    const spawned = (await readFile(pidFile, "utf8")).split("\n").filter(Boolean).map(Number);
    for (const pid of spawned) started.add(pid);
    expect(spawned.length).toBeGreaterThan(1);
    expect(result).toEqual({ endedBy: "sigkill", survivors: [] });
    expect(spawned.filter(isAlive)).toEqual([]);
    // nothing was started after the kill
    expect((await readFile(pidFile, "utf8")).split("\n").filter(Boolean).map(Number)).toEqual(spawned);
  });

  it("kills descendants recorded by the tree walk even after the root exited on its own", async () => {
    const dir = await tempDir("registry");
    const tracking = createStdioLauncher({ registryDir: dir, trackIntervalMs: 20 });
    const { server, pids } = await startTree(["--on-eof=ignore"], tracking);
    const registration = await server.registration;
    expect(registration).not.toBeNull();
    await waitFor(async () => {
      const record = parseSpawnRecord(await readFile(registration?.file ?? "", "utf8"));
      return pids.slice(1).every((pid) => record?.descendants.some((entry) => entry.pid === pid));
    }, "the registry entry to list the child and the grandchild");
    server.transport.send({ exit: true });
    expect(await server.exit).toEqual({ type: "exited", code: 0, signal: null });
    // the child and grandchild are orphans now: no tree walk from the root can find them
    expect(pids.slice(1).every(isAlive)).toBe(true);
    const result = await server.terminateWithResult();
    expect(result.survivors).toEqual([]);
    expect(pids.filter(isAlive)).toEqual([]);
    // a clean terminate removes the registry entry
    expect(await readdir(dir)).toEqual([]);
  });

  it("kills a daemon that double-forked out of the tree (found by the inherited RENNET_TREE_ID)", async () => {
    const server = launch({ command: node, args: [fixture("double-forker.js")] });
    const frame = await firstFrame(server.transport, () => server.stderrTail());
    const daemon = pidOf(frame, "daemon");
    started.add(daemon);
    expect(isAlive(daemon)).toBe(true);
    // the daemon is not a descendant of the child any more: only the marker leads to it
    const status = await readFile(`/proc/${daemon}/status`, "utf8");
    expect(Number(/^PPid:\s*(\d+)$/m.exec(status)?.[1])).not.toBe(server.pid);
    const result = await server.terminateWithResult();
    expect(result.survivors).toEqual([]);
    await waitFor(() => !isAlive(daemon), "the double-forked daemon to end");
  });

  it("is idempotent: every call shares one termination", async () => {
    const { server, pids } = await startTree(["--on-eof=ignore"]);
    const first = server.terminateWithResult();
    const second = server.terminate();
    expect(server.terminateWithResult()).toBe(first);
    await second;
    expect((await first).survivors).toEqual([]);
    expect(pids.filter(isAlive)).toEqual([]);
    await server.terminate();
  });

  it("keeps a bounded, UTF-8-safe tail of stderr that holds the last words when exit resolves", async () => {
    const server = launch({ command: node, args: [fixture("stderr-flood.js")] });
    expect(await server.exit).toEqual({ type: "exited", code: 3, signal: null });
    const tail = server.stderrTail();
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(8 * 1024);
    expect(Buffer.byteLength(tail)).toBeGreaterThan(8 * 1024 - 4);
    expect(tail.endsWith("END✓")).toBe(true);
    expect(tail).not.toContain("\uFFFD");
    await server.terminate();
  });
});

describe("spawnStdioChild when the executable cannot start", () => {
  it("reports ENOENT through exit instead of throwing", async () => {
    const server = spawnStdioChild({ command: "/nonexistent/rennet-no-such-codex", args: ["app-server"] });
    expect(server.pid).toBeNull();
    const exit = await server.exit;
    expect(exit).toMatchObject({ type: "spawn-error", errno: "ENOENT" });
    expect(exit.type === "spawn-error" && exit.message).toContain("/nonexistent/rennet-no-such-codex");
    expect(server.transport.send({ id: 1 })).toBe(false);
    await server.terminate();
  });

  it.runIf(process.platform !== "win32")("reports EACCES for a file that is not executable", async () => {
    const dir = await tempDir("noexec");
    const file = path.join(dir, "codex");
    await writeFile(file, "#!/bin/sh\nexit 0\n");
    await chmod(file, 0o644);
    const server = spawnStdioChild({ command: file, args: ["app-server"] });
    const exit = await server.exit;
    expect(exit).toMatchObject({ type: "spawn-error", errno: "EACCES" });
    expect(exit.type === "spawn-error" && exit.message).toContain("chmod +x");
    await server.terminate();
  });

  it.runIf(process.platform !== "win32")(
    "reports ENOENT of a script that is there as its missing interpreter (CRLF line ends), naming its #! line",
    async () => {
      const dir = await tempDir("crlf");
      const file = path.join(dir, "codex");
      await writeFile(file, "#!/bin/sh\r\nexit 0\r\n");
      await chmod(file, 0o755);
      const server = spawnStdioChild({ command: file, args: ["app-server"], cwd: dir });
      const exit = await server.exit;
      expect(exit).toMatchObject({ type: "spawn-error", errno: "ENOENT" });
      const message = exit.type === "spawn-error" ? exit.message : "";
      expect(message).toContain('the interpreter its first line names ("#!/bin/sh\\r") was not found');
      expect(message).toContain("Windows line ends");
      expect(message).not.toContain("check that the executable exists");
      await server.terminate();
    },
  );

  it.runIf(process.platform === "linux")(
    "reports E2BIG naming the argument or environment variable over the kernel's 128 KiB limit",
    async () => {
      const long = "a".repeat(200_000);
      const byArgument = spawnStdioChild({
        command: node,
        args: ["-e", "0", `--mcp-config={"url":"${long}"}`],
      });
      const argumentExit = await byArgument.exit;
      expect(argumentExit).toMatchObject({ type: "spawn-error", errno: "E2BIG" });
      const argumentMessage = argumentExit.type === "spawn-error" ? argumentExit.message : "";
      expect(argumentMessage).toContain('argument 3 (--mcp-config={"url":"aaaa');
      expect(argumentMessage).toContain("is 200023 bytes");
      expect(argumentMessage).toContain("131072");
      expect(argumentMessage).not.toContain("check the executable path");
      expect(argumentMessage.length).toBeLessThan(1000);
      await byArgument.terminate();
      const byEnv = spawnStdioChild({ command: node, args: ["-e", "0"], env: { ...process.env, BIG: long } });
      const envExit = await byEnv.exit;
      expect(envExit.type === "spawn-error" && envExit.message).toContain(
        "the environment variable BIG is 200004 bytes",
      );
      await byEnv.terminate();
    },
  );

  it("reports arguments Node refuses (a NUL byte) as a spawn error, not a throw", async () => {
    const server = spawnStdioChild({ command: "codex\0", args: [] });
    expect(await server.exit).toMatchObject({ type: "spawn-error", errno: "ERR_INVALID_ARG_VALUE" });
    await server.terminate();
  });
});
