import { randomUUID } from "node:crypto";
import { promises as fs, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect } from "vitest";
import type { DiscoverExecutableOptions } from "../../src/discovery/discover-executable.js";
import { describeProcess, processesWithMarker } from "./processes.js";
import { waitFor } from "./wait.js";

export const FIXTURES = fileURLToPath(new URL("../fixtures/discovery", import.meta.url));
export const FAKE_CODEX = path.join(FIXTURES, "fake-codex.js");
export const FAKE_WSL = path.join(FIXTURES, "fake-wsl.js");

/** Options of `discoverExecutable`, plus `discoverCodex`'s `codexBin`. */
export type SandboxOptions = DiscoverExecutableOptions & { codexBin?: string };

export type FakeMode =
  "ok" | "version-fails" | "no-version" | "handshake-error" | "handshake-hang" | "handshake-exit";

/** A throw-away world for one discovery test: home, cache, system root, a marker every child inherits. */
export interface Sandbox {
  root: string;
  home: string;
  cacheDir: string;
  systemRoot: string;
  /** JSON lines: one per fake-codex invocation. */
  log: string;
  marker: string;
  /** A base environment: no PATH entry with node or codex, HOME, a throw-away CODEX_HOME, the marker. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  dir(...parts: string[]): Promise<string>;
  /** Writes an executable `codex` (a /bin/sh wrapper around the fake) into `dir`. */
  fakeCodex(dir: string, options?: { mode?: FakeMode; version?: string; name?: string }): Promise<string>;
  invocations(): { mode: string; args: string[]; argv1: string }[];
  /** Resolves once a fake codex was invoked as `app-server` (a handshake probe or a launch). */
  appServerStarted(): Promise<void>;
  /** Discovery options confined to the sandbox (linux, 20 s), over `env`. */
  options(env: NodeJS.ProcessEnv, extra?: SandboxOptions): SandboxOptions;
  cleanup(): Promise<void>;
}

export async function createSandbox(): Promise<Sandbox> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "rennet-discovery-")));
  const home = path.join(root, "home");
  const cacheDir = path.join(root, "state");
  const systemRoot = path.join(root, "sysroot");
  const codexHome = path.join(root, "codex-home");
  const log = path.join(root, "fake-codex.log");
  await Promise.all([home, systemRoot, codexHome].map((dir) => fs.mkdir(dir, { recursive: true })));
  const marker = randomUUID();
  const sandbox: Sandbox = {
    root,
    home,
    cacheDir,
    systemRoot,
    log,
    marker,
    env: (extra = {}) => ({
      PATH: "/nonexistent-rennet-bin",
      HOME: home,
      CODEX_HOME: codexHome,
      FAKE_CODEX_LOG: log,
      RENNET_TEST_MARKER: marker,
      ...extra,
    }),
    async dir(...parts) {
      const dir = path.join(root, ...parts);
      await fs.mkdir(dir, { recursive: true });
      return dir;
    },
    async fakeCodex(dir, options = {}) {
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, options.name ?? "codex");
      const script = [
        "#!/bin/sh",
        `FAKE_CODEX_MODE='${options.mode ?? "ok"}'; export FAKE_CODEX_MODE`,
        `FAKE_CODEX_VERSION='${options.version ?? "0.171.0"}'; export FAKE_CODEX_VERSION`,
        `exec '${process.execPath}' '${FAKE_CODEX}' "$@"`,
        "",
      ].join("\n");
      await fs.writeFile(file, script, { mode: 0o755 });
      return file;
    },
    invocations() {
      try {
        return readFileSync(log, "utf8")
          .split("\n")
          .filter((line) => line.length > 0)
          .map((line) => JSON.parse(line) as { mode: string; args: string[]; argv1: string });
      } catch {
        return [];
      }
    },
    appServerStarted: async () => {
      await waitFor(
        () => sandbox.invocations().some((call) => call.args[0] === "app-server"),
        "an app-server",
      );
    },
    options: (env, extra = {}) => ({
      env,
      platform: "linux",
      homedir: home,
      cwd: root,
      cacheDir,
      systemRoot,
      timeoutMs: 20_000,
      ...extra,
    }),
    async cleanup() {
      await fs.rm(root, { recursive: true, force: true });
    },
  };
  return sandbox;
}

/**
 * A fresh sandbox for every test of the calling file (read it through the returned getter inside a test);
 * after each test, no process that carries its marker may be left.
 */
export function sandboxPerTest(setup?: (sandbox: Sandbox) => Promise<void>): () => Sandbox {
  let current: Sandbox | null = null;
  beforeEach(async () => {
    current = await createSandbox();
    await setup?.(current);
  });
  afterEach(async () => {
    const sandbox = current;
    current = null;
    if (!sandbox) return;
    expect(await leftoverProcesses(sandbox.marker)).toEqual([]);
    await sandbox.cleanup();
  });
  return () => {
    if (!current) throw new Error("the sandbox exists only inside a test");
    return current;
  };
}

/**
 * The marked processes still alive after a short settle: a process already killed may need a moment to be reaped
 * on a loaded machine; anything left after that is a leak.
 */
export async function leftoverProcesses(marker: string, settleMs = 3000): Promise<string[]> {
  const deadline = Date.now() + settleMs;
  let found = markedProcesses(marker);
  while (found.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    found = markedProcesses(marker);
  }
  return found;
}

/** Pid, state and command line of every live process whose environment carries the sandbox's marker. */
function markedProcesses(marker: string): string[] {
  return processesWithMarker(marker, "RENNET_TEST_MARKER").map(describeProcess);
}
