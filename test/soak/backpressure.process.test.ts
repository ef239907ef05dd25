/**
 * Backpressure over a real pipe: the executable fake app-server (and the executable fake claude) floods deltas
 * from its own process while the consumer reads one event per turn of the event loop. The runner's queue stays
 * at the high-water mark (the fake blocks on the full pipe), every delta arrives in order, and cancelling while
 * paused ends with one cancelled terminal and no process left. Needs `npm run build` (`npm test` builds first).
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { HarnessSession } from "../../src/harness/session.js";
import type { FakeClaudeStep } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { CodexTurnRunner } from "../../src/codex/turn/turn-runner.js";
import { turnRuntime } from "../../src/codex/turn/turn-child.js";
import {
  EVENT_QUEUE_HIGH_WATER,
  EVENT_QUEUE_LOW_WATER,
  EventChannel,
} from "../../src/harness/event-channel.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { createStdioLauncher } from "../../src/process/stdio-launcher.js";
import { isAlive } from "../helpers/processes.js";
import { fakeSteps, type FakeStep } from "../../src/testkit/fake-script.js";

const FAKE_BIN = fileURLToPath(new URL("../../dist/testkit/fake-app-server-bin.js", import.meta.url));
const FAKE_CLAUDE_BIN = fileURLToPath(new URL("../../dist/testkit/fake-claude-bin.js", import.meta.url));
const DELTAS = 10 * EVENT_QUEUE_HIGH_WATER;
const FRAME_SLACK = 4;

let dir = "";
beforeAll(async () => {
  for (const bin of [FAKE_BIN, FAKE_CLAUDE_BIN])
    if (!existsSync(bin))
      throw new Error(`${bin} is missing: run \`npm run build\` first (\`npm test\` does)`);
  dir = await mkdtemp(path.join(os.tmpdir(), "rennet-backpressure-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A runner on the executable fake following `turn` (the script goes through a file: it is megabytes long). */
async function start(name: string, turn: FakeStep[], signal?: AbortSignal): Promise<CodexTurnRunner> {
  const script = path.join(dir, `${name}.json`);
  await writeFile(script, JSON.stringify({ turn }));
  return new CodexTurnRunner({
    runtime: turnRuntime,
    prompt: "flood",
    cwd: dir,
    codex: { type: "node-launcher", node: process.execPath, script: FAKE_BIN },
    env: { ...process.env, RENNET_FAKE_SCRIPT: script },
    launcher: createStdioLauncher({ registryDir: null, trackIntervalMs: 0 }),
    interruptGraceMs: 60_000,
    ...(signal ? { signal } : {}),
  });
}

function flood(after: FakeStep[]): FakeStep[] {
  const chunks = Array.from({ length: DELTAS }, (_, i) => `d${i} `);
  return [fakeSteps.turnStarted(), ...fakeSteps.agentMessage("msg_1", chunks), ...after];
}

/** A Claude Code session on the executable fake claude following `turn` (launched by a shell wrapper). */
async function startClaude(
  name: string,
  turn: FakeClaudeStep[],
  signal: AbortSignal,
): Promise<HarnessSession> {
  const script = path.join(dir, `${name}.claude.json`);
  await writeFile(script, JSON.stringify({ turn }));
  const claude = path.join(dir, `${name}-claude`);
  await writeFile(claude, `#!/bin/sh\nexec '${process.execPath}' '${FAKE_CLAUDE_BIN}' "$@"\n`, {
    mode: 0o755,
  });
  return createClaudeCode({ claude, env: { ...process.env, RENNET_FAKE_CLAUDE_SCRIPT: script } }).runStreamed(
    {
      prompt: "flood",
      cwd: dir,
      env: { IS_SANDBOX: "1" },
      signal,
    },
  );
}

function claudeFlood(after: FakeClaudeStep[]): FakeClaudeStep[] {
  const chunks = Array.from({ length: DELTAS }, (_, i) => `d${i} `);
  return [claudeSteps.init(), ...claudeSteps.text(chunks.join(""), { chunks }), ...after];
}

function channelOf(session: CodexTurnRunner): EventChannel<HarnessEvent> {
  const events = session.events;
  if (!(events instanceof EventChannel)) throw new Error("the session's events are not an EventChannel");
  return events as EventChannel<HarnessEvent>;
}

describe("backpressure over a real pipe (executable fake)", () => {
  it("keeps the queue at the high-water mark while the fake floods, and delivers every delta in order", async () => {
    const session = await start("complete", flood([fakeSteps.turnCompleted("completed")]));
    const events: HarnessEvent[] = [];
    for await (const event of session.events) {
      events.push(event);
      await nextTurn();
    }
    const channel = channelOf(session);
    expect(channel.peakLength).toBeGreaterThanOrEqual(EVENT_QUEUE_HIGH_WATER);
    expect(channel.peakLength).toBeLessThanOrEqual(EVENT_QUEUE_HIGH_WATER + FRAME_SLACK);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const text = events.map((e) => (e.type === "text.delta" ? e.text : "")).join("");
    expect(text).toBe(Array.from({ length: DELTAS }, (_, i) => `d${i} `).join(""));
    expect((await session.result).outcome).toBe("completed");
  }, 60_000);

  it("cancels while paused: one cancelled terminal, last, and the child is gone", async () => {
    const controller = new AbortController();
    const session = await start("cancel", flood([{ delayMs: 600_000 }]), controller.signal);
    const channel = channelOf(session);
    const events: HarnessEvent[] = [];
    let pid: number | null = null;
    for await (const event of session.events) {
      events.push(event);
      if (event.type === "session.started") pid = event.pid;
      // full once and not yet read down to the low-water mark: reading is paused right now
      const paused = channel.peakLength >= EVENT_QUEUE_HIGH_WATER && channel.length > EVENT_QUEUE_LOW_WATER;
      if (paused && !controller.signal.aborted) controller.abort("stop");
      await nextTurn();
    }
    const terminal = await session.result;
    expect(controller.signal.aborted).toBe(true);
    // reading resumed at the cancel, so the fake could take the interrupt and confirm it
    expect(terminal).toMatchObject({ outcome: "cancelled", cancellation: { via: "interrupted" } });
    expect(events.filter((e) => e.type === "terminal")).toEqual([terminal]);
    expect(events.at(-1)).toEqual(terminal);
    expect(pid !== null && isAlive(pid)).toBe(false);
  }, 60_000);

  it("Claude Code: holds the queue at the high-water mark while claude floods; a cancel while paused reads on", async () => {
    const controller = new AbortController();
    const session = await startClaude("claude", claudeFlood([{ hang: true }]), controller.signal);
    const queue = session.events as unknown as { readBuffered(): HarnessEvent[] };
    const iterator = session.events[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done) throw new Error("no event");
    const events: HarnessEvent[] = [first.value];
    const queued: number[] = [];
    // twice: the consumer stalls, claude fills the queue and is paused; the consumer then takes it all
    for (let round = 0; round < 2; round++) {
      await sleep(1000);
      const batch = queue.readBuffered();
      queued.push(batch.length);
      events.push(...batch);
    }
    await sleep(1000);
    // paused again, and the consumer stalls on: the cancel reads on regardless
    controller.abort("stop");
    const terminal = await session.result;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) events.push(next.value);
    for (const count of queued) {
      expect(count).toBeGreaterThanOrEqual(EVENT_QUEUE_HIGH_WATER);
      expect(count).toBeLessThanOrEqual(EVENT_QUEUE_HIGH_WATER + FRAME_SLACK);
    }
    const text = events.map((e) => (e.type === "text.delta" ? e.text : "")).join("");
    expect(text).toBe(Array.from({ length: DELTAS }, (_, i) => `d${i} `).join(""));
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(terminal.outcome).toBe("cancelled");
    expect(events.filter((e) => e.type === "terminal")).toEqual([terminal]);
    const started = events.find((e) => e.type === "session.started");
    const pid = started?.type === "session.started" ? started.pid : null;
    expect(pid !== null && isAlive(pid)).toBe(false);
  }, 60_000);
});
