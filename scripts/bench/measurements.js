/* global AbortController */
// The measured operations. Each returns one sample in milliseconds (or several named ones) and leaves no
// process behind: every session is awaited until `result`, which settles once the child's tree is gone.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createCodex } from "../../dist/index.js";
import {
  createCodexHome,
  fakeSteps,
  modelScenarios,
  startLoopbackModelServer,
} from "../../dist/testkit/index.js";

/** A turn that starts and then runs for ten minutes unless interrupted. */
const LONG_TURN = [fakeSteps.turnStarted(), { delayMs: 600_000 }];

/** Baseline 1: spawn `node -e ""` and wait for its exit. */
export async function nodeSpawnExit() {
  const start = performance.now();
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", resolve);
  });
  return performance.now() - start;
}

/** A client driving the executable fake app-server (`dist/testkit/fake-app-server-bin.js`) with `script`. */
export function fakeClient(fakeBin, script, interruptGraceMs) {
  return createCodex({
    codex: {
      launch: { type: "node-launcher", node: process.execPath, script: fakeBin },
      path: fakeBin,
      version: null,
      source: "explicit",
    },
    env: { ...process.env, RENNET_FAKE_SCRIPT_JSON: JSON.stringify(script) },
    reapOrphans: false,
    ...(interruptGraceMs !== undefined ? { interruptGraceMs } : {}),
  });
}

/** Baseline 2: a completed text turn with the fake, from `runStreamed()` to the terminal event. */
export async function fakeCompletedTurn(fakeBin) {
  const client = fakeClient(fakeBin, { turn: fakeSteps.textTurn("benchmark") });
  const start = performance.now();
  const session = client.runStreamed({ prompt: "bench", cwd: os.tmpdir() });
  let terminalAt = Number.NaN;
  for await (const event of session.events) if (event.type === "terminal") terminalAt = performance.now();
  const terminal = await session.result;
  if (terminal.outcome !== "completed") throw new Error(`the baseline turn ended ${terminal.outcome}`);
  return terminalAt - start;
}

/**
 * Starts a session, aborts it when `trigger` first matches an event, and measures from `abort()` to the terminal
 * event (`toTerminal`) and to `result` (`toResult`: the process tree is gone).
 */
async function abortOnce(client, callOptions, trigger, expectedVia) {
  const controller = new AbortController();
  const session = client.runStreamed({ ...callOptions, signal: controller.signal });
  let abortedAt = Number.NaN;
  let terminalAt = Number.NaN;
  for await (const event of session.events) {
    if (Number.isNaN(abortedAt) && trigger(event)) {
      abortedAt = performance.now();
      controller.abort(new Error("benchmark abort"));
    }
    if (event.type === "terminal") terminalAt = performance.now();
  }
  const terminal = await session.result;
  const resultAt = performance.now();
  if (terminal.outcome !== "cancelled" || Number.isNaN(abortedAt)) {
    throw new Error(
      `expected a cancelled turn, got ${terminal.outcome}: ${JSON.stringify(terminal.failure)}`,
    );
  }
  if (expectedVia && terminal.cancellation?.via !== expectedVia) {
    throw new Error(`expected cancellation via ${expectedVia}, got ${terminal.cancellation?.via}`);
  }
  return { toTerminal: terminalAt - abortedAt, toResult: resultAt - abortedAt };
}

/** (a) the fake answers `turn/interrupt` at once with an interrupted `turn/completed`. */
export function abortAnsweringFake(fakeBin) {
  const client = fakeClient(fakeBin, { turn: LONG_TURN });
  return abortOnce(
    client,
    { prompt: "bench", cwd: os.tmpdir() },
    (event) => event.type === "turn.started",
    "interrupted",
  );
}

/** (b) the fake acknowledges `turn/interrupt` but never completes the turn: the runner waits the grace, then kills. */
export function abortSilentFake(fakeBin, interruptGraceMs) {
  const client = fakeClient(fakeBin, { turn: LONG_TURN, onInterrupt: [] }, interruptGraceMs);
  return abortOnce(
    client,
    { prompt: "bench", cwd: os.tmpdir() },
    (event) => event.type === "turn.started",
    "killed",
  );
}

/**
 * (c) the real codex with a loopback model, mid-command (`sleep 300`). Returns a measuring function and a
 * cleanup; every turn uses the same throw-away CODEX_HOME and HOME.
 */
export async function realCodexBench(codexBin) {
  const model = await startLoopbackModelServer({
    scenario: modelScenarios.command("sleep 300", { then: "never reached", yieldTimeMs: 120_000 }),
  });
  const home = await createCodexHome({ modelUrl: model.url });
  const userHome = await mkdtemp(path.join(os.tmpdir(), "rennet-bench-home-"));
  const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-bench-cwd-"));
  const client = createCodex({ codex: codexBin, env: { ...home.env(), HOME: userHome }, reapOrphans: false });
  return {
    measure: () => abortOnce(client, { prompt: "bench", cwd }, (event) => event.type === "tool.started"),
    async cleanup() {
      await model.close();
      await home.cleanup();
      await rm(userHome, { recursive: true, force: true });
      await rm(cwd, { recursive: true, force: true });
    },
  };
}
