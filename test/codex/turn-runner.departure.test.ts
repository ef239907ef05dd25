/**
 * A child that goes away before answering is reported as what happened to it: an `exit` failure with its exit
 * code, signal and stderr tail, whichever request was pending and in whichever order its exit and the close of
 * its stdout arrive. Only what the child said (a refusal, an answer that is not codex's) is reported otherwise.
 */
import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { startFailure } from "../../src/codex/turn/turn-failures.js";
import { ConnectionClosedError } from "../../src/jsonl/errors.js";
import type { ExitFailure, SpawnFailure } from "../../src/harness/events.js";
import type { FakeDeparture, FakeScript } from "../../src/testkit/fake-script.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { collect } from "../helpers/collect.js";

const PENDING = ["initialize", "config/read", "thread/start", "turn/start"] as const;
const ORDERS: FakeDeparture[] = ["close-first", "close-after", "together", "keep-open"];
const STDERR = "usage: not-codex [options]\n";

async function run(script: FakeScript) {
  const fake = new InMemoryAppServer({ stderr: STDERR, turn: fakeSteps.textTurn("ok"), ...script });
  const codex = createCodex({ launcher: fake.launcher, env: {} });
  const result = await collect(
    codex.runStreamed({ prompt: "hi", cwd: "/tmp", timeouts: { turnMs: 10_000 } }),
  );
  return { fake, ...result };
}

describe("a child that exits while a request is pending", () => {
  for (const method of PENDING) {
    for (const stdout of ORDERS) {
      it(`is an exit failure: ${method} pending, stdout ${stdout}`, async () => {
        const { terminal, fake } = await run({ replies: { [method]: { exit: { code: 3, stdout } } } });
        expect(terminal.outcome).toBe("failed");
        expect(terminal.failure).toEqual<ExitFailure>({
          source: "exit",
          exitCode: 3,
          signal: null,
          stderrTail: STDERR,
          message: "codex app-server exited with code 3 before the turn completed",
        });
        expect(fake.launches.every((launch) => launch.terminated)).toBe(true);
      });
    }
    it(`is an exit failure with the signal: ${method} pending, killed`, async () => {
      const { terminal } = await run({ replies: { [method]: { exit: { signal: "SIGSEGV" } } } });
      expect(terminal.failure).toMatchObject({ source: "exit", exitCode: null, signal: "SIGSEGV" });
    });
  }

  for (const method of PENDING) {
    it(`is an exit failure when ${method}'s deadline passes while the exited child's stdout is still open`, async () => {
      const fake = new InMemoryAppServer({
        stderr: STDERR,
        replies: { [method]: { exit: { code: 3, stdout: "keep-open" } } },
      });
      const codex = createCodex({ launcher: fake.launcher, env: {} });
      const deadlines = { initializeMs: 100, threadStartMs: 100, turnStartMs: 100 };
      const { terminal } = await collect(
        codex.runStreamed({ prompt: "hi", cwd: "/tmp", timeouts: deadlines }),
      );
      expect(terminal.failure).toMatchObject({ source: "exit", exitCode: 3, stderrTail: STDERR });
    });
  }

  it("closed its stdout and kept running: an exit failure without a code, once the wait for the exit is over", async () => {
    const { terminal } = await run({ replies: { "thread/start": { closeStdout: true } } });
    expect(terminal.failure).toMatchObject({
      source: "exit",
      exitCode: null,
      signal: null,
      stderrTail: STDERR,
      message: "codex app-server closed its output but did not exit before the turn completed",
    });
  });
});

describe("what the child said wins over its exit", () => {
  it("an initialize answer that is not codex's is NOT_CODEX, naming the executable", async () => {
    for (const result of ["hello", {}, { userAgent: 42 }, null]) {
      const fake = new InMemoryAppServer({ replies: { initialize: { result } } });
      const codex = createCodex({ codex: "/opt/tools/not-codex", launcher: fake.launcher, env: {} });
      const { terminal } = await collect(codex.runStreamed({ prompt: "hi", cwd: "/tmp" }));
      expect(terminal.failure).toMatchObject<Partial<SpawnFailure>>({
        source: "spawn",
        code: "NOT_CODEX",
        command: "/opt/tools/not-codex",
        errno: null,
      });
      expect(terminal.failure?.message).toContain("it is not a codex executable");
      expect(fake.peer.requestsOf("thread/start")).toEqual([]);
    }
  });
});

describe("startFailure tells errors apart by code, not class", () => {
  it("a closed connection from another copy of the error classes is left to the exit handlers", () => {
    // what a loader that ran the lazily loaded connection module again would hand over
    const foreign = Object.assign(new Error("initialize got no response: connection closed (eof)"), {
      code: "CONNECTION_CLOSED",
      [Symbol.for("rennet-adapters.error")]: true,
    });
    expect(startFailure(foreign, "codex")).toBeNull();
    expect(startFailure(new ConnectionClosedError("initialize", "eof"), "codex")).toBeNull();
  });

  it("an unexpected error is a defect, unless the child is going away", () => {
    expect(startFailure(new Error("boom"), "codex")).toMatchObject({ source: "jsonrpc", method: "unknown" });
    expect(startFailure(new Error("boom"), "codex", true)).toBeNull();
  });
});
