import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { TurnCancelledError, TurnFailedError } from "../../src/harness/errors.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import { FAKE_MODEL, FAKE_THREAD_ID, fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { withTurnStartedHook } from "../helpers/turn-started-hook.js";

function client(script: FakeScript, options: { interruptGraceMs?: number; codex?: string } = {}) {
  const fake = new InMemoryAppServer(script);
  const codex = createCodex({
    launcher: fake.launcher,
    codex: options.codex ?? "/opt/codex/bin/codex",
    env: { PATH: "/bin" },
    ...options,
  });
  return { fake, codex };
}

describe("createCodex().run", () => {
  it("resolves with the final message, usage, model and thread of a completed turn", async () => {
    const { codex, fake } = client({ turn: fakeSteps.textTurn("All done.") });
    const result = await codex.run({ prompt: "do it", cwd: "/tmp" });
    expect(result).toMatchObject({
      finalMessage: "All done.",
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, cacheReadTokens: 0, reasoningTokens: 0 },
      model: FAKE_MODEL,
      threadId: FAKE_THREAD_ID,
    });
    expect(result.terminal.outcome).toBe("completed");
    expect(fake.launches[0]?.spec.command).toBe("/opt/codex/bin/codex");
    expect(fake.launches[0]?.spec.env).toEqual({ PATH: "/bin" });
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("rejects with TurnFailedError (code TURN_FAILED) carrying the terminal frame on failure", async () => {
    const { codex } = client({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.turnCompleted("failed", {
          error: { message: "provider down", codexErrorInfo: "serverOverloaded" },
        }),
      ],
    });
    const error = await codex.run({ prompt: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnFailedError);
    expect(error).toMatchObject({
      code: "TURN_FAILED",
      terminal: { outcome: "failed", failure: { source: "turn", errorInfo: "serverOverloaded" } },
    });
    expect((error as Error).message).toContain("provider down");
  });

  it("rejects with exactly signal.reason (identity) when the caller's signal cancels a running turn", async () => {
    const fake = new InMemoryAppServer({ turn: [fakeSteps.turnStarted()] });
    const controller = new AbortController();
    const reason = { custom: "reason object" };
    const codex = createCodex({
      launcher: withTurnStartedHook(fake, () => controller.abort(reason)),
      interruptGraceMs: 60_000,
    });
    const outcome = codex.run({ prompt: "x", signal: controller.signal });
    await expect(outcome).rejects.toBe(reason);
    expect(fake.peer.requestsOf("turn/interrupt")).toHaveLength(1);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("rejects with signal.reason even when codex exits while being interrupted", async () => {
    const fake = new InMemoryAppServer({
      turn: [fakeSteps.turnStarted()],
      onInterrupt: [{ exit: { code: 0 } }],
    });
    const controller = new AbortController();
    const reason = new Error("stop");
    const codex = createCodex({
      launcher: withTurnStartedHook(fake, () => controller.abort(reason)),
      interruptGraceMs: 60_000,
    });
    await expect(codex.run({ prompt: "x", signal: controller.signal })).rejects.toBe(reason);
  });

  it("rejects with the default AbortError reason itself when aborted without a reason", async () => {
    const fake = new InMemoryAppServer({ turn: [fakeSteps.turnStarted()] });
    const controller = new AbortController();
    const codex = createCodex({ launcher: withTurnStartedHook(fake, () => controller.abort()) });
    const error = await codex.run({ prompt: "x", signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe("AbortError");
  });

  it("rejects with exactly signal.reason for an already-aborted signal and launches nothing", async () => {
    const { codex, fake } = client({ turn: fakeSteps.textTurn("never") });
    const reason = new Error("cancelled up front");
    await expect(codex.run({ prompt: "x", signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(fake.launches).toHaveLength(0);
  });

  it("rejects with TurnCancelledError (code TURN_CANCELLED) when codex interrupts the turn on its own", async () => {
    const { codex } = client({ turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("interrupted")] });
    const error = await codex.run({ prompt: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnCancelledError);
    expect(error).toMatchObject({ code: "TURN_CANCELLED", terminal: { outcome: "cancelled" } });
  });

  it("resolves when the turn completed even though the signal aborted right after (completion won the race)", async () => {
    const controller = new AbortController();
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("made it") });
    const launcher: Launcher = (spec) => {
      const proc = fake.launcher(spec);
      const inner = proc.transport;
      return {
        ...proc,
        transport: {
          start: (listener) =>
            inner.start({
              ...listener,
              frame: (frame) => {
                listener.frame(frame);
                if (frame.method === "turn/completed") controller.abort("too late");
              },
            }),
          send: (frame) => inner.send(frame),
          endOutput: () => inner.endOutput(),
          close: () => inner.close(),
          get isClosed() {
            return inner.isClosed;
          },
        },
      };
    };
    const codex = createCodex({ launcher });
    const result = await codex.run({ prompt: "x", signal: controller.signal });
    expect(controller.signal.aborted).toBe(true);
    expect(result.finalMessage).toBe("made it");
  });

  it("passes interruptGraceMs through: an ignored interrupt is killed after the grace", async () => {
    const fake = new InMemoryAppServer({ turn: [fakeSteps.turnStarted()], onInterrupt: [] });
    const controller = new AbortController();
    const codex = createCodex({
      launcher: withTurnStartedHook(fake, () => controller.abort("stop")),
      interruptGraceMs: 20,
    });
    const session = codex.runStreamed({ prompt: "x", signal: controller.signal });
    const terminal = await session.result;
    expect(terminal.cancellation).toEqual({ via: "killed", reason: "stop" });
  });

  it("passes timeouts through", async () => {
    const { codex } = client({ replies: { initialize: { noReply: true } } });
    const error = await codex.run({ prompt: "x", timeouts: { initializeMs: 20 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnFailedError);
    expect((error as TurnFailedError).terminal.failure).toMatchObject({
      source: "jsonrpc",
      timeout: { step: "initialize", timeoutMs: 20 },
    });
  });
});

describe("createCodex().runStreamed", () => {
  it("yields the harness event stream, ending with the terminal that result resolves to", async () => {
    const { codex } = client({ turn: fakeSteps.textTurn("streamed", ["str", "eamed"]) });
    const session = codex.runStreamed({ prompt: "x", model: "gpt-test" });
    const events: HarnessEvent[] = [];
    for await (const event of session.events) events.push(event);
    const terminal = await session.result;
    expect(events.at(-1)).toBe(terminal);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.every((e) => e.harness === "codex" && e.sessionId === session.id)).toBe(true);
    expect(events.filter((e) => e.type === "text.delta").map((e) => (e as { text: string }).text)).toEqual([
      "str",
      "eamed",
    ]);
  });

  it("never sends effort on the agentic turn", async () => {
    const { codex, fake } = client({ turn: fakeSteps.textTurn("ok") });
    await codex.run({ prompt: "x", model: "gpt-test" });
    expect(fake.peer.requestsOf("turn/start")[0]?.params).not.toHaveProperty("effort");
  });
});

describe("resolveCodex", () => {
  it("uses a string path exactly as given (no discovery), after one stat", async () => {
    const codex = createCodex({ codex: process.execPath, env: { RENNET_CODEX_BIN: "/env/codex" } });
    expect(await codex.resolveCodex()).toEqual({
      launch: { type: "native", command: process.execPath },
      path: process.execPath,
      version: null,
      source: "explicit",
    });
    await expect(createCodex({ codex: "/nonexistent/codex" }).resolveCodex()).rejects.toMatchObject({
      code: "CODEX_UNAVAILABLE",
      message: expect.stringContaining("/nonexistent/codex: not found"),
    });
    // a bare name is looked up in the absolute directories of the client's PATH
    const nodeDir = path.dirname(process.execPath);
    const node = path.basename(process.execPath);
    expect((await createCodex({ codex: node, env: { PATH: `.:${nodeDir}` } }).resolveCodex()).launch).toEqual(
      {
        type: "native",
        command: path.join(nodeDir, node),
      },
    );
    await expect(createCodex({ codex: "codex", env: { PATH: "." } }).resolveCodex()).rejects.toMatchObject({
      code: "CODEX_UNAVAILABLE",
    });
  });

  it("checks a string path once per client; a failed check is not kept", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "rennet-explicit-once-"));
    try {
      const file = path.join(dir, "codex");
      const codex = createCodex({ codex: file });
      await expect(codex.resolveCodex()).rejects.toMatchObject({ code: "CODEX_UNAVAILABLE" });
      await writeFile(file, "#!/bin/sh\n", { mode: 0o755 });
      const first = await codex.resolveCodex();
      await rm(file);
      // the session's own resolve (after the CLI's) reuses the check instead of repeating it
      expect(await codex.resolveCodex()).toBe(first);
      await expect(createCodex({ codex: file }).resolveCodex()).rejects.toMatchObject({
        code: "CODEX_UNAVAILABLE",
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("uses a resolved codex as given", async () => {
    const resolved = {
      launch: { type: "node-launcher", node: "/n/node", script: "/n/codex.js" },
      path: "/n/codex.js",
      version: "0.171.0",
      source: "known-location",
    } as const;
    expect(await createCodex({ codex: resolved }).resolveCodex()).toBe(resolved);
  });

  it("with an injected launcher and no codex: RENNET_CODEX_BIN, else codex, without discovery", async () => {
    const launcher = new InMemoryAppServer({}).launcher;
    const fromEnv = createCodex({ launcher, env: { RENNET_CODEX_BIN: "/env/codex" } });
    expect((await fromEnv.resolveCodex()).launch).toEqual({ type: "native", command: "/env/codex" });
    const empty = createCodex({ launcher, env: { RENNET_CODEX_BIN: "" } });
    expect((await empty.resolveCodex()).launch).toEqual({ type: "native", command: "codex" });
  });

  it("rejects with an already-aborted signal's reason whatever decides the codex", async () => {
    const reason = new Error("stop");
    const signal = AbortSignal.abort(reason);
    const resolved = {
      launch: { type: "native", command: "/n/codex" },
      path: "/n/codex",
      version: null,
    } as const;
    const launcher = new InMemoryAppServer({}).launcher;
    for (const codex of [
      createCodex({ codex: process.execPath }),
      createCodex({ codex: { ...resolved, source: "explicit" } }),
      createCodex({ launcher }),
    ])
      await expect(codex.resolveCodex({ signal })).rejects.toBe(reason);
  });
});
