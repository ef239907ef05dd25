/**
 * Process tests: every signal the CLI handles, in each phase of `rennet codex run --json` that has not a test
 * of its own elsewhere (the login shell and the turn: rennet-cli.process.test.ts). Every child inherits the
 * sandbox's marker, so whatever a phase started and left running is found (`sandboxPerTest` checks).
 */
import { spawn } from "node:child_process";
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { TerminalEvent } from "../../src/harness/events.js";
import { fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";
import { waitFor } from "../helpers/wait.js";
import { parseJsonLines } from "./helpers/cli-harness.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = path.join(root, "bin", "rennet.js");
const fakeBin = path.join(root, "dist", "testkit", "fake-app-server-bin.js");
const sb = sandboxPerTest();

function startCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: sb().root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, exit, stdout: () => stdout, stderr: () => stderr };
}

async function script(name: string, lines: string[]): Promise<string> {
  const file = path.join(await sb().dir("bin"), name);
  await writeFile(file, ["#!/bin/sh", ...lines, ""].join("\n"), { mode: 0o755 });
  await chmod(file, 0o755);
  return file;
}

/** A codex for `--codex-bin`: the executable fake app-server; `mcp …` writes a flag file and hangs. */
async function fakeCodex(): Promise<{ codex: string; mcpStarted: string }> {
  const mcpStarted = path.join(sb().root, "mcp-started");
  const codex = await script("codex", [
    `case " $* " in *" mcp list "*) touch '${mcpStarted}'; exec sleep 60 ;; esac`,
    `exec '${process.execPath}' '${fakeBin}' "$@"`,
  ]);
  return { codex, mcpStarted };
}

/** The environment of one CLI run: the sandbox's, a login shell that fails at once, a private registry. */
async function cliEnv(extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const shell = await script("failing-shell", ["exit 1"]);
  return sb().env({
    PATH: "/usr/bin:/bin",
    SHELL: shell,
    RENNET_STATE_DIR: path.join(sb().root, "state"),
    ...extra,
  });
}

function fakeScriptEnv(fake: FakeScript, log: string): Record<string, string> {
  return { RENNET_FAKE_SCRIPT_JSON: JSON.stringify(fake), RENNET_FAKE_LOG: log };
}

function lastTerminal(stdout: string): TerminalEvent | undefined {
  const last = parseJsonLines(stdout).at(-1);
  return last?.type === "terminal" ? last : undefined;
}

describe.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)("rennet codex run --json: %s", (signal) => {
  it("during discovery's app-server probe: exit 130, nothing on stdout, the probe is gone", async () => {
    const codex = await sb().fakeCodex(await sb().dir("path"), { mode: "handshake-hang" });
    const run = startCli(["codex", "run", "--json", "hi"], await cliEnv({ PATH: path.dirname(codex) }));
    await sb().appServerStarted();
    run.child.kill(signal);
    expect(await run.exit).toBe(130);
    expect(run.stdout()).toBe("");
    expect(run.stderr()).toContain(`${signal}: cancelled while finding codex; no turn was started`);
    expect(run.stderr()).not.toContain("cancelling the turn");
  });

  it("while `codex mcp list` reads the MCP inventory: exit 130, a cancelled terminal, mcp list is gone", async () => {
    const { codex, mcpStarted } = await fakeCodex();
    const run = startCli(
      ["codex", "run", "--json", "--mcp-none", "--codex-bin", codex, "hi"],
      await cliEnv(),
    );
    await waitFor(async () => (await readFile(mcpStarted).catch(() => null)) !== null, "codex mcp list");
    run.child.kill(signal);
    expect(await run.exit).toBe(130);
    expect(lastTerminal(run.stdout())).toMatchObject({
      outcome: "cancelled",
      cancellation: { via: "before-turn", reason: `received ${signal}` },
    });
  });

  it("during the handshake: exit 130, a cancelled terminal (no turn yet), the app-server is gone", async () => {
    const { codex } = await fakeCodex();
    const log = path.join(sb().root, "fake.log");
    const env = await cliEnv(fakeScriptEnv({ replies: { initialize: { noReply: true } } }, log));
    const run = startCli(["codex", "run", "--json", "--codex-bin", codex, "hi"], env);
    await waitFor(
      async () => (await readFile(log, "utf8").catch(() => "")).includes('"initialize"'),
      "initialize",
    );
    run.child.kill(signal);
    expect(await run.exit).toBe(130);
    expect(lastTerminal(run.stdout())).toMatchObject({
      outcome: "cancelled",
      cancellation: { via: "before-turn", reason: `received ${signal}` },
    });
  });

  it("after the terminal frame, while a stubborn app-server is ended: the turn's own exit 0, nothing left", async () => {
    const { codex } = await fakeCodex();
    const fake: FakeScript = {
      // the fake stays alive after the turn (a timer), and ignores stdin EOF and SIGTERM: SIGKILL ends it
      turn: [...fakeSteps.textTurn("done"), { delayMs: 60_000 }],
      onStdinEnd: "ignore",
      ignoreSigterm: true,
    };
    const env = await cliEnv(fakeScriptEnv(fake, path.join(sb().root, "fake.log")));
    const run = startCli(["codex", "run", "--json", "--codex-bin", codex, "hi"], env);
    await waitFor(() => run.stdout().includes('"type":"terminal"'), "the terminal frame");
    run.child.kill(signal);
    expect(await run.exit).toBe(0);
    expect(run.stderr()).toContain(`${signal}: the turn has ended; its processes are being stopped`);
    expect(lastTerminal(run.stdout())?.outcome).toBe("completed");
  });
});
