/** The executable fake `claude` (dist/testkit/fake-claude-bin.js) as a real child process. */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ClaudeEventMapper } from "../../src/claude/event-mapper.js";
import { interruptRequest, userMessage } from "../../src/claude/stdin-messages.js";
import type { FakeClaudeScript } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { REPO_ROOT } from "../helpers/codex-bin.js";
import { expectWellFormed } from "../helpers/well-formed.js";

const BIN = path.join(REPO_ROOT, "dist", "testkit", "fake-claude-bin.js");

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: run \`npx tsc -p tsconfig.build.json\` first (\`npm test\` does)`);
});

const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function run(
  script: FakeClaudeScript,
  args: string[] = ["-p", "--input-format", "stream-json"],
  env: NodeJS.ProcessEnv = {},
) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, RENNET_FAKE_CLAUDE_SCRIPT_JSON: JSON.stringify(script), ...env },
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  const lines = () =>
    stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, exited, lines, stdout: () => stdout, stderr: () => stderr };
}

describe("the executable fake claude", () => {
  it("plays a Bash turn over stdio, logs argv and what the client wrote, and exits 0 on stdin EOF", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "rennet-fake-claude-"));
    dirs.push(dir);
    const log = path.join(dir, "log.jsonl");
    const fake = run(
      { turn: claudeSteps.bashTurn("echo hi", { output: "hi" }, "done") },
      ["-p", "--model=m"],
      {
        RENNET_FAKE_CLAUDE_LOG: log,
      },
    );
    fake.child.stdin.end(`${JSON.stringify(userMessage({ text: "go" }))}\n`);
    expect(await fake.exited).toEqual({ code: 0, signal: null });
    const mapper = new ClaudeEventMapper();
    const events = fake.lines().flatMap((line) => mapper.map(line).events);
    expectWellFormed(events);
    expect(events.filter((event) => event.type === "tool.completed")).toEqual([
      expect.objectContaining({ exitCode: 0, status: "completed" }),
    ]);
    expect(mapper.finalMessage).toBe("done");
    const logged = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(logged).toEqual([{ fake: "argv", argv: ["-p", "--model=m"] }, userMessage({ text: "go" })]);
  });

  it("is interrupted over stdin and exits 1 after the interrupted result", async () => {
    const fake = run({ turn: [claudeSteps.init(), { delayMs: 60_000 }] });
    fake.child.stdin.write(`${JSON.stringify(userMessage({ text: "go" }))}\n`);
    for (let i = 0; i < 500 && fake.lines().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    fake.child.stdin.end(`${JSON.stringify(interruptRequest("int-1"))}\n`);
    expect(await fake.exited).toEqual({ code: 1, signal: null });
    expect(fake.lines().map((line) => line.type)).toEqual(["system", "control_response", "user", "result"]);
  });

  it("prints its version, refuses an unknown option like an old release, and exits 1 on a non-JSON line", async () => {
    const version = run({ version: "2.0.77" }, ["--version"]);
    expect(await version.exited).toEqual({ code: 0, signal: null });
    expect(version.stdout()).toBe("2.0.77 (Claude Code)\n");
    const old = run({ unknownOptions: ["--effort"] }, ["-p", "--effort=low"]);
    expect(await old.exited).toEqual({ code: 1, signal: null });
    expect(old.stderr()).toBe("error: unknown option '--effort'\n");
    expect(old.stdout()).toBe("");
    const bad = run({});
    bad.child.stdin.end("hello\n");
    expect(await bad.exited).toEqual({ code: 1, signal: null });
    expect(bad.stderr()).toContain("Error parsing streaming input line");
  });

  it("keeps running on SIGTERM when told to, until SIGKILL", async () => {
    const fake = run({ ignoreSigterm: true, turn: [claudeSteps.init(), { hang: true }] });
    fake.child.stdin.write(`${JSON.stringify(userMessage({ text: "go" }))}\n`);
    for (let i = 0; i < 500 && fake.lines().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    fake.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.child.exitCode).toBeNull();
    fake.child.kill("SIGKILL");
    expect(await fake.exited).toEqual({ code: null, signal: "SIGKILL" });
  });
});
