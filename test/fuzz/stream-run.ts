/**
 * Runs one {@link Scenario} through the public API (`createCodex().runStreamed()` or `.run()`) against the
 * in-memory fake app-server, or the executable one as a real child process, and records what happened.
 */
import { createCodex } from "../../src/codex/client/codex-client.js";
import { TurnCancelledError, TurnFailedError } from "../../src/harness/errors.js";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import { createStdioLauncher } from "../../src/process/stdio-launcher.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { FUZZ_MAX_LINE_BYTES, type Scenario } from "./stream-model.js";
import { scriptOf } from "./stream-script.js";
import { isAlive } from "../helpers/processes.js";

/**
 * Deadlines, in memory and for a real child process. The overall one only keeps a session that never ends from
 * hanging the property (hitting it is itself a violation); a request's is reached only when the fake does not
 * answer.
 */
const DEADLINES = {
  inMemory: { requestMs: 150, safetyMs: 1_000 },
  process: { requestMs: 5_000, safetyMs: 15_000 },
};

export interface RunRecord {
  api: "streamed" | "run";
  /** The overall deadline the session ran with. */
  safetyDeadlineMs: number;
  /** Every event the consumer saw (streamed). */
  events: HarnessEvent[];
  /** `session.result`, or the terminal `run()` carried; null when `run()` rejected with the signal's reason. */
  terminal: TerminalEvent | null;
  /** Whether the caller aborted or stopped iterating (it may have come after the terminal was decided). */
  interfered: boolean;
  abortReason: Error;
  /** How `run()` settled. */
  run: { resolved: true } | { resolved: false; error: unknown } | null;
  /** Per launch: whether the fake had exited by the time the session's result was settled. */
  exitedAtResult: boolean[];
  /** Per launch, for real processes: whether the pid was still alive after the result. */
  aliveAfterResult: boolean[];
  /** Frames the fake received from the client (in memory only; `null` for a real process). */
  received: Record<string, unknown>[] | null;
}

interface Target {
  launcher: Launcher;
  launches(): { exited: boolean; pid: number | null }[];
  received(): Record<string, unknown>[] | null;
}

function inMemoryTarget(s: Scenario): Target {
  const fake = new InMemoryAppServer(scriptOf(s), { maxLineBytes: FUZZ_MAX_LINE_BYTES });
  const launches: { exited: boolean; pid: number | null }[] = [];
  return {
    launcher: (spec) => {
      const proc = fake.launcher(spec);
      const launch = { exited: false, pid: null };
      launches.push(launch);
      void proc.exit.then(() => (launch.exited = true));
      return proc;
    },
    launches: () => launches,
    received: () => fake.launches[0]?.peer.received ?? [],
  };
}

/** The executable fake (`dist/testkit/fake-app-server-bin.js`) spawned by the real launcher. */
function processTarget(s: Scenario, fakeBin: string): Target {
  const launches: { exited: boolean; pid: number | null }[] = [];
  const spawnStdioChild = createStdioLauncher({ registryDir: null, stdinGraceMs: 100 });
  return {
    launcher: (spec) => {
      const proc = spawnStdioChild({
        ...spec,
        command: process.execPath,
        args: [fakeBin, ...spec.args],
        env: { PATH: process.env.PATH ?? "", RENNET_FAKE_SCRIPT_JSON: JSON.stringify(scriptOf(s)) },
      });
      const launch = { exited: false, pid: proc.pid };
      launches.push(launch);
      void proc.exit.then(() => (launch.exited = true));
      return proc;
    },
    launches: () => launches,
    received: () => null,
  };
}

/** Runs the scenario in memory, or as a real child process when `fakeBin` is given. */
export async function runScenario(s: Scenario, fakeBin?: string): Promise<RunRecord> {
  const target = fakeBin === undefined ? inMemoryTarget(s) : processTarget(s, fakeBin);
  const deadlines = fakeBin === undefined ? DEADLINES.inMemory : DEADLINES.process;
  const codex = createCodex({ launcher: target.launcher, env: {}, interruptGraceMs: 30, reapOrphans: false });
  const controller = new AbortController();
  const abortReason = new Error("fuzz: the caller aborted");
  const options = {
    prompt: "fuzz",
    cwd: "/tmp",
    signal: controller.signal,
    timeouts: {
      initializeMs: deadlines.requestMs,
      threadStartMs: deadlines.requestMs,
      turnStartMs: deadlines.requestMs,
      turnMs: deadlines.safetyMs,
    },
  };
  const caller = s.caller;
  const record: RunRecord = {
    api:
      caller.t === "none" || caller.t === "abortBefore"
        ? caller.api
        : caller.t === "abortAfterTurns"
          ? "run"
          : "streamed",
    safetyDeadlineMs: deadlines.safetyMs,
    events: [],
    terminal: null,
    interfered: false,
    abortReason,
    run: null,
    exitedAtResult: [],
    aliveAfterResult: [],
    received: null,
  };
  const abort = (): void => {
    record.interfered = true;
    controller.abort(abortReason);
  };
  if (caller.t === "abortBefore") abort();

  if (record.api === "streamed") {
    const session = codex.runStreamed(options);
    for await (const event of session.events) {
      record.events.push(event);
      if (caller.t === "abortAfterEvents" && record.events.length === caller.n) abort();
      if (caller.t === "breakAfterEvents" && record.events.length === caller.n) {
        record.interfered = true;
        break;
      }
    }
    record.terminal = await session.result;
  } else {
    let settled = false;
    if (caller.t === "abortAfterTurns") {
      let turns = 0;
      const tick = (): void => {
        if (settled) return;
        if (++turns >= caller.n) abort();
        else setImmediate(tick);
      };
      setImmediate(tick);
    }
    try {
      record.terminal = (await codex.run(options)).terminal;
      record.run = { resolved: true };
    } catch (error) {
      record.run = { resolved: false, error };
      if (error instanceof TurnFailedError || error instanceof TurnCancelledError)
        record.terminal = error.terminal;
    } finally {
      settled = true;
    }
  }
  record.exitedAtResult = target.launches().map((l) => l.exited);
  record.aliveAfterResult = target.launches().map((l) => l.pid !== null && isAlive(l.pid));
  record.received = target.received();
  return record;
}
