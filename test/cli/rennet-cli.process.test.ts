/**
 * Process tests: the built CLI (`node bin/rennet.js`, needs `npm run build`) against the executable fake
 * app-server, reached through a tiny shell wrapper given to `--codex-bin`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { SessionStartedEvent, TerminalEvent } from "../../src/harness/events.js";
import { FAKE_THREAD_ID, FAKE_TURN_ID, fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import { parseJsonLines } from "./helpers/cli-harness.js";
import { isAlive } from "../helpers/processes.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(root, "bin", "rennet.js");
const fakeBin = join(root, "dist", "testkit", "fake-app-server-bin.js");

let dir: string;
let wrapper: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  for (const file of [join(root, "dist", "cli", "main.js"), fakeBin]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`npm run build\` first (\`npm test\` does)`);
  }
  dir = await mkdtemp(join(tmpdir(), "rennet-cli-process-"));
  wrapper = join(dir, "fake-codex");
  await writeFile(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${fakeBin}" "$@"\n`);
  await chmod(wrapper, 0o755);
});

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function startRennet(args: string[], script: FakeScript = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, RENNET_FAKE_SCRIPT_JSON: JSON.stringify(script) };
  delete env.RENNET_CODEX_BIN;
  const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return {
    child,
    exit,
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

describe("rennet codex run (built CLI, executable fake app-server)", () => {
  it("a completed turn prints the text and the summary and exits 0", async () => {
    const run = startRennet(["codex", "run", "--codex-bin", wrapper, "say hello"], {
      turn: fakeSteps.textTurn("Hello there", ["Hello", " there"]),
    });
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toBe("Hello there\n");
    expect(run.stderr()).toContain("✓ completed · model fake-model · 10 in / 5 out");
  });

  it.runIf(process.platform === "linux")(
    "exits once the turn ended, also when a daemon that left codex's tree still holds its output pipes",
    async () => {
      const pidFile = join(dir, "holder.pid");
      const escaping = join(dir, "fake-codex-escaping");
      await writeFile(
        escaping,
        `#!/bin/sh\n(env -i setsid sleep 30 & echo $! > "${pidFile}")\nexec "${wrapper}" "$@"\n`,
      );
      await chmod(escaping, 0o755);
      const begun = Date.now();
      const run = startRennet(["codex", "run", "--codex-bin", escaping, "say hello"], {
        turn: fakeSteps.textTurn("Hello"),
      });
      const holder = Number((await readFile(pidFile, "utf8").catch(() => "0")).trim());
      try {
        expect(await run.exit).toBe(0);
        expect(Date.now() - begun).toBeLessThan(20_000);
        expect(run.stdout()).toBe("Hello\n");
      } finally {
        if (holder > 0 && isAlive(holder)) process.kill(holder, "SIGKILL");
      }
    },
  );

  it("SIGINT mid-turn exits 130 with a cancelled terminal frame, and the app-server is gone", async () => {
    const run = startRennet(["codex", "run", "--json", "--codex-bin", wrapper, "wait"], {
      turn: [fakeSteps.turnStarted(), { delayMs: 30_000 }],
    });
    await vi.waitFor(
      () => {
        if (!run.stdout().includes('"turn.started"')) throw new Error("no turn.started yet");
      },
      { timeout: 20_000, interval: 20 },
    );
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(130);
    const events = parseJsonLines(run.stdout());
    const terminal = events.at(-1) as TerminalEvent;
    expect(terminal).toMatchObject({
      type: "terminal",
      outcome: "cancelled",
      cancellation: { reason: "received SIGINT" },
    });
    const started = events.find((e): e is SessionStartedEvent => e.type === "session.started");
    expect(started?.pid).toEqual(expect.any(Number));
    expect(isAlive(started?.pid as number)).toBe(false);
    expect(run.stderr()).toContain("SIGINT: cancelling the turn");
  });

  it("a --json reader that goes away mid-turn cancels the turn at the next event: exit 130, no crash, the app-server is gone", async () => {
    const run = startRennet(["codex", "run", "--json", "--codex-bin", wrapper, "wait"], {
      turn: [
        fakeSteps.turnStarted(),
        { delayMs: 1_000 },
        fakeSteps.notify("item/agentMessage/delta", {
          threadId: FAKE_THREAD_ID,
          turnId: FAKE_TURN_ID,
          itemId: "m",
          delta: "x",
        }),
        { delayMs: 30_000 },
      ],
    });
    await vi.waitFor(
      () => {
        if (!run.stdout().includes('"turn.started"')) throw new Error("no turn.started yet");
      },
      { timeout: 20_000, interval: 20 },
    );
    const started = parseJsonLines(run.stdout()).find(
      (e): e is SessionStartedEvent => e.type === "session.started",
    );
    run.child.stdout?.destroy(); // the reader closes its end of the pipe
    expect(await run.exit).toBe(130);
    expect(run.stderr()).not.toMatch(/EPIPE|internal error|Unhandled/);
    expect(isAlive(started?.pid as number)).toBe(false);
  });

  it("help piped into a reader that stops early exits 0 without a stack trace", async () => {
    const child = spawn(
      "/bin/sh",
      ["-c", `"${process.execPath}" "${bin}" codex run --help | head -c 1 >/dev/null; echo "rc=$?"`],
      {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    children.push(child);
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    await new Promise((resolve) => child.once("close", resolve));
    expect(stderr).toBe("");
  });

  it("a missing or unusable --codex-bin is exit 3 with the same words in every command, before any spawn", async () => {
    const missing = join(dir, "no-such-codex");
    const notExecutable = join(dir, "not-executable");
    await writeFile(notExecutable, "#!/bin/sh\n");
    for (const [file, problem] of [
      [missing, "not found"],
      [notExecutable, "is not executable"],
      [dir, "is a directory"],
    ] as const) {
      for (const command of [
        ["codex", "run", "hi"],
        ["codex", "run", "--json", "hi"],
        ["codex", "mcp-isolation"],
      ]) {
        const run = startRennet([...command, "--codex-bin", file]);
        expect(await run.exit, command.join(" ")).toBe(3);
        expect(run.stdout()).toBe("");
        expect(run.stderr()).toContain(`error: Codex is unavailable: ${file}: ${problem}`);
      }
    }
  });

  it("a codex that cannot be started is a spawn failure: exit 1 with the OS error", async () => {
    const broken = join(dir, "broken-codex");
    await writeFile(broken, "#!/nonexistent/interpreter\n");
    await chmod(broken, 0o755);
    const json = startRennet(["codex", "run", "--json", "--codex-bin", broken, "hi"]);
    expect(await json.exit).toBe(1);
    const terminal = parseJsonLines(json.stdout()).at(-1) as TerminalEvent;
    expect(terminal.failure).toMatchObject({ source: "spawn", errno: "ENOENT", command: broken });
  });

  it("a usage error exits 2 before anything is spawned", async () => {
    const run = startRennet(["codex", "run", "--cwd", join(dir, "nope"), "--codex-bin", wrapper, "hi"]);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toContain("no such directory");
  });
});

describe("rennet codex run: a signal while Codex is being discovered", () => {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    it(`${signal} during the login shell exits 130 and leaves the shell behind no process`, async () => {
      const home = await mkdtemp(join(tmpdir(), "rennet-signal-home-"));
      const pidFile = join(home, "shell.pid");
      const shell = join(home, "slowsh");
      await writeFile(shell, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 60\n`);
      await chmod(shell, 0o755);
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        HOME: home,
        SHELL: shell,
        PATH: "/usr/bin:/bin",
        RENNET_STATE_DIR: join(home, "state"),
      };
      delete env.RENNET_CODEX_BIN;
      const child = spawn(process.execPath, [bin, "codex", "run", "--json", "hi"], {
        cwd: home,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let stdout = "";
      child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      const exit = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
      const shellPid = await vi.waitFor(
        async () => {
          const text = await readFile(pidFile, "utf8");
          const pid = Number(text.trim());
          if (!Number.isInteger(pid) || pid <= 0) throw new Error("no pid yet");
          return pid;
        },
        { timeout: 20_000, interval: 20 },
      );
      child.kill(signal);
      expect(await exit).toBe(130);
      expect(stdout).toBe(""); // no session started: nothing on stdout
      await vi.waitFor(
        () => {
          if (isAlive(shellPid)) throw new Error("the login shell is still running");
        },
        { timeout: 5_000, interval: 20 },
      );
      await rm(home, { recursive: true, force: true });
    });
  }
});

describe("rennet codex run: input is checked before discovery", () => {
  it("an empty prompt exits 2 without running discovery or the login shell", async () => {
    const home = await mkdtemp(join(tmpdir(), "rennet-empty-prompt-"));
    const marker = join(home, "shell-ran");
    const shell = join(home, "marking-shell");
    await writeFile(shell, `#!/bin/sh\ntouch "${marker}"\nexit 1\n`);
    await chmod(shell, 0o755);
    try {
      const child = spawn(process.execPath, [bin, "codex", "run", "--json", ""], {
        env: { PATH: "/nonexistent", HOME: home, CODEX_HOME: home, SHELL: shell },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once("close", (c) => resolve(c)));
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toContain("the prompt is empty");
      expect(existsSync(marker)).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
