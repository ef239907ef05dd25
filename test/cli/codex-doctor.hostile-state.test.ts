/**
 * `rennet codex doctor` and `run` against a hostile or broken state directory and hostile probe output: a FIFO at
 * the probe cache's path, cache entries of the wrong shape, escape sequences in a probed binary's output. Each
 * test gets a throw-away HOME and state directory (the sandbox).
 */
import { execFileSync, spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = path.join(root, "bin", "rennet.js");
const fakeBin = path.join(root, "dist", "testkit", "fake-app-server-bin.js");
const sb = sandboxPerTest();
/** Characters that must not reach a terminal raw (a newline and the report's own marks aside). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

function stateDir(): string {
  return path.join(sb().root, "state");
}

function cacheFile(): string {
  return path.join(stateDir(), "probe-cache.json");
}

/** A shell script in the sandbox (a login shell, a stand-in codex). */
async function script(name: string, lines: string[]): Promise<string> {
  const file = path.join(await sb().dir("bin"), name);
  await fs.writeFile(file, ["#!/bin/sh", ...lines, ""].join("\n"), { mode: 0o755 });
  return file;
}

/** A codex that answers every probe and doctor's trust check; each start appends its first argument to a log. */
async function answeringCodex(): Promise<{ codex: string; starts: () => Promise<number> }> {
  const log = path.join(sb().root, "codex-starts.log");
  const codex = await script("codex", [
    `printf '%s\\n' "$1" >> '${log}'`,
    `exec '${process.execPath}' '${fakeBin}' "$@"`,
  ]);
  const starts = async (): Promise<number> =>
    (await fs.readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
  return { codex, starts };
}

/** The sandbox's environment with a login shell that fails at once (so its outcome is cached). */
async function env(extra: Record<string, string>): Promise<NodeJS.ProcessEnv> {
  const shell = await script("failing-shell", ["exit 1"]);
  return sb().env({ SHELL: shell, RENNET_STATE_DIR: stateDir(), ...extra });
}

/** `rennet codex doctor` in this process. */
async function doctor(args: string[], environment: NodeJS.ProcessEnv) {
  let stdout = "";
  let stderr = "";
  const code = await main(["codex", "doctor", "--no-drift", ...args], {
    stdout: { write: (text: string) => ((stdout += text), true) },
    stderr: { write: (text: string) => ((stderr += text), true) },
    env: environment,
    cwd: sb().root,
  } as never);
  return { code, stdout, stderr };
}

/** The CLI as a child process; `exit` resolves with its code, or "still running" after `ms`. */
function startCli(args: string[], environment: NodeJS.ProcessEnv, ms: number) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: sb().root,
    env: environment,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
  let timer: NodeJS.Timeout | undefined;
  const exit = Promise.race([
    closed,
    new Promise<"still running">((resolve) => (timer = setTimeout(() => resolve("still running"), ms))),
  ]).finally(() => {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return { child, exit, output: () => output };
}

async function fifoAtCachePath(): Promise<void> {
  await fs.mkdir(stateDir(), { mode: 0o700 });
  execFileSync("mkfifo", [cacheFile()]);
}

describe.skipIf(process.platform === "win32")("a FIFO at the probe cache's path", () => {
  it("doctor completes promptly, reporting the codex found", async () => {
    const { codex } = await answeringCodex();
    await fifoAtCachePath();
    const run = startCli(["codex", "doctor", "--no-drift"], await env({ PATH: path.dirname(codex) }), 20_000);
    expect(await run.exit).toBe(0);
    expect(run.output()).toContain("Codex: available");
  });

  it("a run still finds its codex, and SIGTERM ends it", async () => {
    const codex = await sb().fakeCodex(await sb().dir("path"), { mode: "handshake-hang" });
    await fifoAtCachePath();
    const run = startCli(["codex", "run", "--json", "hi"], await env({ PATH: path.dirname(codex) }), 20_000);
    await sb().appServerStarted();
    run.child.kill("SIGTERM");
    expect(await run.exit).toBe(130);
  });
});

describe("probe-cache entries of the wrong shape", () => {
  type CacheFile = { probes: Record<string, Record<string, unknown>>; loginShell: Record<string, object> };

  async function mutateCache(change: (data: CacheFile) => void): Promise<void> {
    const data = JSON.parse(await fs.readFile(cacheFile(), "utf8")) as CacheFile;
    change(data);
    await fs.writeFile(cacheFile(), JSON.stringify(data));
  }

  it.each([
    ["probes null", { probes: null }],
    ["probes holding null", { probes: [null, 5, { probe: "x" }] }],
    ["wrong types", { version: 12, launch: { x: 1 }, probes: "nope" }],
  ])("with %s are a cache miss: doctor probes again and exits as usual", async (_, change) => {
    const { codex, starts } = await answeringCodex();
    const environment = await env({ PATH: path.dirname(codex) });
    expect((await doctor([], environment)).code).toBe(0);
    await mutateCache((data) => {
      for (const entry of Object.values(data.probes)) Object.assign(entry, change);
      for (const key of Object.keys(data.loginShell))
        data.loginShell[key] = { path: 42, flags: null, ms: "x", at: Date.now() };
    });
    const startsBefore = await starts();

    const text = await doctor(["--no-color"], environment);
    expect(text).toMatchObject({ code: 0, stderr: "" });
    expect(text.stdout).toContain("Codex: available");
    expect(text.stdout).not.toContain("cached");
    expect(text.stdout).toMatch(/Login shell: .* failed after \d+ ms: /);
    // probed again: --version and the handshake, then the trust check (a cache hit starts only the last)
    expect((await starts()) - startsBefore).toBe(3);

    await mutateCache((data) => {
      for (const entry of Object.values(data.probes)) Object.assign(entry, change);
    });
    const json = await doctor(["--json"], environment);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { candidates: { cached: boolean; probes: unknown }[] };
    expect(report.candidates[0]).toMatchObject({ cached: false, probes: expect.any(Array) });
  });
});

describe("escape sequences in a probed binary's output", () => {
  const TITLE = "\u001b]0;ERR-TITLE\u0007\u001b[2J";

  it("a failing --version's stderr is escaped in the text report", async () => {
    const codex = await script("codex", [`printf 'bad ${TITLE}\\n' >&2`, "exit 1"]);
    const { code, stdout } = await doctor(["--no-color"], await env({ PATH: path.dirname(codex) }));
    expect(code).toBe(3);
    expect(stdout).not.toMatch(UNSAFE);
    expect(stdout).toContain("version: exited with code 1: bad \\u001b]0;ERR-TITLE\\u0007\\u001b[2J");
  });

  it("a --version that prints no version has its output escaped, C1 and bidi characters too", async () => {
    // U+009B (a C1 CSI) and U+202E (right-to-left override), as UTF-8
    const codex = await script("codex", ["printf 'v\\302\\2332J\\342\\200\\256txt\\n'", "exit 0"]);
    const { code, stdout } = await doctor(["--no-color"], await env({ PATH: path.dirname(codex) }));
    expect(code).toBe(3);
    expect(stdout).not.toMatch(UNSAFE);
    expect(stdout).toContain('version: printed no version (stdout: "v\\u009b2J\\u202etxt")');
  });

  it("the JSON report keeps the probe's reason as it was made (JSON escapes the rest)", async () => {
    const codex = await script("codex", [`printf 'bad ${TITLE}\\n' >&2`, "exit 1"]);
    const { stdout } = await doctor(["--json"], await env({ PATH: path.dirname(codex) }));
    expect(stdout).not.toMatch(UNSAFE);
    const report = JSON.parse(stdout) as { candidates: { reason: string }[] };
    expect(report.candidates[0]?.reason).toBe(
      "version: exited with code 1: bad \\u001b]0;ERR-TITLE\\u0007\\u001b[2J",
    );
  });
});
