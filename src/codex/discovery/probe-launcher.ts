import { spawn, type ChildProcess } from "node:child_process";
import { PassThrough } from "node:stream";
import { StreamTransport } from "../../jsonl/stream-transport.js";
import type { AppServerProcess, LaunchSpec, ProcessExit } from "../../process/app-server-process.js";
import { killTree } from "./kill-tree.js";

const STDERR_TAIL_BYTES = 4096;

/**
 * A minimal {@link Launcher} for discovery's handshake probe: the child leads its own process group (POSIX),
 * and `terminate()` closes stdin, waits a grace, then SIGKILLs the whole group (`taskkill /T /F` on Windows).
 * Honors `windowsVerbatimArguments` for the `cmd.exe` form.
 */
export function launchProbeAppServer(
  spec: LaunchSpec & { windowsVerbatimArguments?: boolean },
): AppServerProcess {
  let child: ChildProcess | null = null;
  let spawnError: NodeJS.ErrnoException | null = null;
  try {
    child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: process.platform !== "win32",
      windowsHide: true,
      windowsVerbatimArguments: spec.windowsVerbatimArguments,
    });
  } catch (error) {
    spawnError = error as NodeJS.ErrnoException;
  }
  let stderr = Buffer.alloc(0);
  let resolveExit: (exit: ProcessExit) => void = () => {};
  const exit = new Promise<ProcessExit>((resolve) => (resolveExit = resolve));
  if (!child || !child.stdout || !child.stdin) {
    resolveExit({
      type: "spawn-error",
      errno: spawnError?.code ?? null,
      message: spawnError?.message ?? "no stdio",
    });
    const dead = new PassThrough();
    dead.end();
    return {
      pid: null,
      transport: new StreamTransport(dead, new PassThrough()),
      exit,
      stderrTail: () => "",
      terminate: async () => {},
    };
  }
  const proc = child;
  proc.stderr?.on("data", (chunk: Buffer) => {
    stderr = Buffer.concat([stderr, chunk]);
    if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
  });
  proc.stdin?.on("error", () => {});
  proc.once("error", (error: NodeJS.ErrnoException) => {
    if (proc.pid === undefined)
      resolveExit({ type: "spawn-error", errno: error.code ?? null, message: error.message });
  });
  proc.once("exit", (code, signal) => resolveExit({ type: "exited", code, signal }));
  const transport = new StreamTransport(proc.stdout!, proc.stdin!);
  let terminating: Promise<void> | null = null;
  return {
    pid: proc.pid ?? null,
    transport,
    exit,
    stderrTail: () => stderr.toString("utf8"),
    terminate(options = {}) {
      terminating ??= (async () => {
        transport.endOutput();
        const grace = options.graceMs ?? 1500;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exit, new Promise<void>((resolve) => (timer = setTimeout(resolve, grace)))]);
        clearTimeout(timer);
        await killTree(proc.pid);
        await exit;
        transport.close();
        proc.stdout?.destroy();
        proc.stderr?.destroy();
      })();
      return terminating;
    },
  };
}
