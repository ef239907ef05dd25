import { APP_SERVER_BASE_ARGS } from "../helpers/app-server-args.js";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CodexTurnRunner } from "../../src/codex/turn/turn-runner.js";
import { turnRuntime } from "../../src/codex/turn/turn-child.js";
import type { Failure, HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import { createInMemoryTransportPair } from "../../src/jsonl/in-memory-transport.js";
import { StreamTransport } from "../../src/jsonl/stream-transport.js";
import type { StdioChild, Launcher, ProcessExit } from "../../src/process/stdio-child.js";
import { ByteTail, DEFAULT_STDERR_TAIL_BYTES } from "../../src/process/byte-tail.js";
import { FAKE_THREAD_ID, FAKE_TURN_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { expectWellFormed } from "../helpers/well-formed.js";
import { collect, ofType } from "../helpers/collect.js";
import { startFakeSession, runnerOn } from "../helpers/fake-session.js";

const start = startFakeSession;

function failureOf<S extends Failure["source"]>(
  terminal: TerminalEvent,
  source: S,
): Extract<Failure, { source: S }> {
  expect(terminal.outcome).toBe("failed");
  expect(terminal.cancellation).toBeNull();
  expect(terminal.failure?.source).toBe(source);
  return terminal.failure as Extract<Failure, { source: S }>;
}

const ids = { threadId: FAKE_THREAD_ID, turnId: FAKE_TURN_ID };

/** The methods the client sent, without read-only look-ups (config/read) that may sit between the steps. */
const lifecycle = (received: Record<string, unknown>[]): unknown[] =>
  received.map((f) => f.method).filter((m) => m !== "config/read");

describe("failure source: turn", () => {
  it("keeps the provider message and an object codexErrorInfo", async () => {
    const error = {
      message: "unexpected status 500 Internal Server Error: upstream exploded",
      codexErrorInfo: { httpConnectionFailed: { httpStatusCode: 500 } },
      additionalDetails: "request id abc",
    };
    const { fake, session } = start({
      turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("failed", { error })],
    });
    const { events, terminal } = await collect(session);
    expectWellFormed(events);
    expect(failureOf(terminal, "turn")).toEqual({
      source: "turn",
      message: error.message,
      errorInfo: error.codexErrorInfo,
      additionalDetails: error.additionalDetails,
    });
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("keeps a string codexErrorInfo", async () => {
    const { session } = start({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.turnCompleted("failed", {
          error: { message: "You've hit your usage limit.", codexErrorInfo: "usageLimitExceeded" },
        }),
      ],
    });
    const { terminal } = await collect(session);
    expect(failureOf(terminal, "turn")).toEqual({
      source: "turn",
      message: "You've hit your usage limit.",
      errorInfo: "usageLimitExceeded",
      additionalDetails: null,
    });
  });

  it("takes the message of the last non-retrying error notification when turn/completed carries none", async () => {
    const { session } = start({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.notify("error", {
          error: { message: "Reconnecting... 1/1", codexErrorInfo: null },
          willRetry: true,
          ...ids,
        }),
        fakeSteps.notify("error", {
          error: {
            message: "stream disconnected before completion",
            codexErrorInfo: { responseStreamDisconnected: { httpStatusCode: 502 } },
          },
          willRetry: false,
          ...ids,
        }),
        fakeSteps.turnCompleted("failed"),
      ],
    });
    const { events, terminal } = await collect(session);
    expect(ofType(events, "warning")).toHaveLength(2);
    expect(failureOf(terminal, "turn")).toMatchObject({
      message: "stream disconnected before completion",
      errorInfo: { responseStreamDisconnected: { httpStatusCode: 502 } },
    });
  });

  it("fails with a clear message when a failed turn gives no reason at all", async () => {
    const { session } = start({ turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("failed")] });
    const { terminal } = await collect(session);
    expect(failureOf(terminal, "turn").message).toMatch(/without an error message/);
  });

  it("fails on a turn/completed status it does not know", async () => {
    const { session } = start({ turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("exploded")] });
    const { terminal } = await collect(session);
    expect(failureOf(terminal, "turn").message).toContain('"exploded"');
  });

  it("keeps the streamed text and usage on a failed terminal", async () => {
    const { session } = start({
      turn: [
        fakeSteps.turnStarted(),
        ...fakeSteps.agentMessage("m", ["partial"], "commentary"),
        fakeSteps.tokenUsage({ inputTokens: 4, totalTokens: 4 }),
        fakeSteps.turnCompleted("failed", { error: { message: "x" } }),
      ],
    });
    const { terminal } = await collect(session);
    expect(terminal.finalMessage).toBe("partial");
    expect(terminal.usage?.totalTokens).toBe(4);
  });
});

describe("failure source: jsonrpc", () => {
  it.each([
    ["initialize", ["initialize"]],
    ["thread/start", ["initialize", "initialized", "thread/start"]],
    ["turn/start", ["initialize", "initialized", "thread/start", "turn/start"]],
  ])(
    "an error answer to %s fails the turn with its code and message and sends nothing more",
    async (method, sent) => {
      const { fake, session } = start({
        replies: {
          [method]: {
            error: { code: -32600, message: `Invalid request: bad ${method}`, data: { field: "x" } },
          },
        },
        turn: fakeSteps.textTurn("never"),
      });
      const { events, terminal } = await collect(session);
      expectWellFormed(events);
      const failure = failureOf(terminal, "jsonrpc");
      expect(failure).toMatchObject({ method, code: -32600, data: { field: "x" } });
      expect(failure.message).toContain(`Invalid request: bad ${method}`);
      expect(failure.message).toContain(method);
      expect(failure.timeout).toBeUndefined();
      expect(lifecycle(fake.peer.received)).toEqual(sent);
      expect(fake.launches[0]?.terminated).toBe(true);
    },
  );

  it("a thread/start result without a thread id is a parse failure naming it", async () => {
    const { fake, session } = start({ replies: { "thread/start": { result: { model: "m" } } } });
    const { terminal } = await collect(session);
    const failure = failureOf(terminal, "parse");
    expect(failure.message).toMatch(/thread\/start returned no thread id/);
    expect(failure.line).toBe('{"model":"m"}');
    expect(fake.peer.requestsOf("turn/start")).toEqual([]);
  });
});

describe("failure source: exit", () => {
  it("an exit mid-turn fails with the exit code and keeps the stderr tail", async () => {
    const { fake, session } = start({
      stderr: "thread 'main' panicked at core/src/lib.rs:1: boom\n",
      turn: [
        fakeSteps.turnStarted(),
        ...fakeSteps.agentMessage("m", ["half"]).slice(0, 2),
        { exit: { code: 101 } },
      ],
    });
    const { events, terminal } = await collect(session);
    expectWellFormed(events);
    const failure = failureOf(terminal, "exit");
    expect(failure).toMatchObject({
      exitCode: 101,
      signal: null,
      stderrTail: "thread 'main' panicked at core/src/lib.rs:1: boom\n",
    });
    expect(failure.message).toMatch(/exited with code 101 before the turn completed/);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("the stderr tail on the failure is bounded (a process keeps only the last KiB of a chatty stderr)", async () => {
    const fake = new InMemoryAppServer({ turn: [fakeSteps.turnStarted(), { exit: { code: 1 } }] });
    const tail = new ByteTail(DEFAULT_STDERR_TAIL_BYTES);
    for (let i = 0; i < 2000; i++) tail.push(`log line ${i} ${"·".repeat(40)}\n`);
    tail.push("FINAL: the reason codex died\n");
    const launcher: Launcher = (spec) => ({ ...fake.launcher(spec), stderrTail: () => tail.text() });
    const session = runnerOn(launcher);
    const { terminal } = await collect(session);
    const failure = failureOf(terminal, "exit");
    expect(Buffer.byteLength(failure.stderrTail, "utf8")).toBeLessThanOrEqual(DEFAULT_STDERR_TAIL_BYTES);
    expect(Buffer.byteLength(failure.stderrTail, "utf8")).toBeGreaterThan(DEFAULT_STDERR_TAIL_BYTES / 2);
    expect(failure.stderrTail.endsWith("FINAL: the reason codex died\n")).toBe(true);
    expect(failure.stderrTail).not.toContain("log line 0 ");
  });

  it("a kill by signal fails with the signal and no exit code", async () => {
    const { session } = start({
      turn: [fakeSteps.turnStarted(), { exit: { code: null, signal: "SIGKILL" } }],
    });
    const { terminal } = await collect(session);
    const failure = failureOf(terminal, "exit");
    expect(failure).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(failure.message).toMatch(/killed by SIGKILL/);
  });

  it("an exit during the handshake is an exit failure too (not a jsonrpc one)", async () => {
    const { session } = start({
      afterInitialize: [{ exit: { code: 2 } }],
      replies: { "thread/start": { noReply: true } },
    });
    const { terminal } = await collect(session);
    expect(failureOf(terminal, "exit").exitCode).toBe(2);
  });

  it("an exit seen before stdout closes still fails with the exit code", async () => {
    const { session } = start({ turn: [fakeSteps.turnStarted(), { exitKeepStdout: { code: 7 } }] });
    const { terminal } = await collect(session);
    expect(failureOf(terminal, "exit").exitCode).toBe(7);
  });

  it("stdout closing without an exit fails after a bounded wait, saying so", async () => {
    const { fake, session } = start({
      turn: [fakeSteps.turnStarted(), { closeStdout: true }],
      onStdinEnd: "ignore",
    });
    const { terminal } = await collect(session);
    const failure = failureOf(terminal, "exit");
    expect(failure.message).toMatch(/closed its output but did not exit/);
    expect(failure.exitCode).toBeNull();
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("frames codex wrote just before exiting are still delivered before the exit failure", async () => {
    const { session } = start({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.notify("item/agentMessage/delta", { itemId: "m", delta: "last words", ...ids }),
        { exit: { code: 1 } },
      ],
    });
    const { events, terminal } = await collect(session);
    expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["last words"]);
    expect(failureOf(terminal, "exit").exitCode).toBe(1);
  });
});

describe("failure source: parse", () => {
  it("a malformed line mid-turn fails the turn with the offending line, truncated", async () => {
    const garbage = `panic: not json at all ${"x".repeat(5000)}`;
    const { fake, session } = start({
      turn: [fakeSteps.turnStarted(), { raw: `${garbage}\n` }, ...fakeSteps.textTurn("never").slice(1)],
    });
    const { events, terminal } = await collect(session);
    expectWellFormed(events);
    expect(ofType(events, "text.delta")).toEqual([]);
    const failure = failureOf(terminal, "parse");
    expect(failure.message).toMatch(/invalid line: malformed JSON/);
    expect(failure.line.startsWith("panic: not json at all")).toBe(true);
    expect(failure.line.length).toBeLessThan(300);
    expect(failure.line).toMatch(/more chars\)$/);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it.each([
    ["an array", "[1,2,3]"],
    ["a number", "42"],
    ["a string", '"hello"'],
    ["null", "null"],
  ])("a JSON value that is %s fails the turn as a parse failure", async (_label, raw) => {
    const { session } = start({ turn: [fakeSteps.turnStarted(), { raw: `${raw}\n` }] });
    const { terminal } = await collect(session);
    const failure = failureOf(terminal, "parse");
    expect(failure.line).toBe(raw);
    expect(failure.message).toMatch(/expected a JSON object/);
  });

  it("CRLF endings and blank lines from codex are not failures", async () => {
    const turnStarted = JSON.stringify((fakeSteps.turnStarted() as { send: unknown }).send);
    const { session } = start({
      turn: [{ raw: `\r\n\n${turnStarted}\r\n   \n` }, ...fakeSteps.textTurn("ok").slice(1)],
    });
    const { terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
  });
});

describe("failure source: spawn", () => {
  /** A launcher whose child never started, like `spawn` of a missing executable. */
  function spawnErrorLauncher(options: { closeStdout: boolean }) {
    const state = { terminated: 0 };
    const launcher: Launcher = () => {
      const [client, server] = createInMemoryTransportPair();
      if (options.closeStdout) server.endRaw();
      return {
        pid: null,
        transport: client.transport,
        exit: Promise.resolve<ProcessExit>({
          type: "spawn-error",
          errno: "ENOENT",
          message: "spawn /nope/codex ENOENT",
        }),
        stderrTail: () => "",
        terminate: () => {
          state.terminated++;
          return Promise.resolve();
        },
      };
    };
    return { launcher, state };
  }

  it.each([true, false])(
    "a spawn error (ENOENT) fails with the OS error and the command (stdout closed: %s)",
    async (closeStdout) => {
      const { launcher, state } = spawnErrorLauncher({ closeStdout });
      const session = new CodexTurnRunner({
        runtime: turnRuntime,
        prompt: "x",
        codex: { type: "native", command: "/nope/codex" },
        launcher,
      });
      const { events, terminal } = await collect(session);
      expect(events.map((e) => e.type)).toEqual(["terminal"]);
      expect(failureOf(terminal, "spawn")).toEqual({
        source: "spawn",
        message: expect.stringContaining("ENOENT"),
        errno: "ENOENT",
        command: "/nope/codex",
      });
      expect(terminal.failure?.message).toContain("/nope/codex");
      expect(state.terminated).toBe(1);
    },
  );

  it("a failing prepare step is reported as a spawn failure and nothing is launched", async () => {
    const fake = new InMemoryAppServer({});
    const session = runnerOn(fake.launcher, {
      prepare: () =>
        Promise.reject(
          Object.assign(new Error("cannot read config.toml"), {
            code: "EACCES",
            errno: -13,
            syscall: "open",
          }),
        ),
    });
    const { terminal } = await collect(session);
    expect(failureOf(terminal, "spawn")).toEqual({
      source: "spawn",
      message: "codex was not started: cannot read config.toml",
      errno: "EACCES",
      command: "codex",
    });
    expect(fake.launches).toHaveLength(0);
  });

  it("prepare can add app-server arguments", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const session = runnerOn(fake.launcher, {
      appServerArgs: ["-c", "a=1"],
      prepare: () =>
        Promise.resolve({
          codex: { type: "native", command: "codex" },
          appServerArgs: ["--disable", "plugins"],
        }),
    });
    await collect(session);
    expect(fake.launches[0]?.spec.args).toEqual([
      "app-server",
      ...APP_SERVER_BASE_ARGS,
      "-c",
      "a=1",
      "--disable",
      "plugins",
    ]);
  });
});

describe("writes after exit", () => {
  /** A child whose stdin is a broken pipe: every write fails with EPIPE; it exits with code 1 shortly after. */
  function brokenPipeLauncher() {
    const state = { terminated: 0 };
    const launcher: Launcher = (): StdioChild => {
      const stdout = new PassThrough();
      const stdin = new Writable({
        write(_chunk, _enc, callback) {
          callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
        },
      });
      const exit = new Promise<ProcessExit>((resolve) =>
        setTimeout(() => resolve({ type: "exited", code: 1, signal: null }), 5),
      );
      void exit.then(() => stdout.end());
      return {
        pid: 4242,
        transport: new StreamTransport(stdout, stdin),
        exit,
        stderrTail: () => "fatal: early exit",
        terminate: () => {
          state.terminated++;
          return Promise.resolve();
        },
      };
    };
    return { launcher, state };
  }

  it("a child that no longer accepts input (EPIPE) ends the turn with one exit failure and nothing throws", async () => {
    const { launcher, state } = brokenPipeLauncher();
    const session = runnerOn(launcher);
    const { events, terminal } = await collect(session);
    expectWellFormed(events);
    expect(failureOf(terminal, "exit")).toMatchObject({ exitCode: 1, stderrTail: "fatal: early exit" });
    expect(state.terminated).toBe(1);
    expect(() => session.cancel("late")).not.toThrow();
    expect(await session.result).toBe(terminal); // the late cancel changed nothing
  });

  it("a write failure is named in the exit failure message", async () => {
    const { launcher } = brokenPipeLauncher();
    const session = runnerOn(launcher);
    const { terminal } = await collect(session);
    expect(failureOf(terminal, "exit").message).toMatch(/stopped accepting input \(write EPIPE\)/);
  });

  it("cancelling after the child exited mid-turn never throws and keeps one terminal", async () => {
    const { fake, session } = start({ turn: [fakeSteps.turnStarted(), { exitKeepStdout: { code: 0 } }] });
    const events: HarnessEvent[] = [];
    for await (const event of session.events) {
      events.push(event);
      if (event.type === "turn.started") {
        await fake.launches[0]?.exit;
        expect(() => session.cancel("after exit")).not.toThrow();
      }
    }
    expectWellFormed(events);
  });
});
