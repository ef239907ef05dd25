import { readdir } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import { describeProcess, processesWithMarker, stillAlive } from "./processes.js";
import { startCliProcess, type CliProcess } from "../cli/helpers/cli-process.js";

/** Checks shared by the tests that run many sessions at once. */

/** The pid `session.started` reported for the app-server, or null when there is none yet. */
export function appServerPid(events: readonly HarnessEvent[]): number | null {
  for (const event of events) if (event.type === "session.started") return event.pid;
  return null;
}

/**
 * Asserts the `--json` stream contract of one finished session: exactly one terminal frame, and it is the last
 * frame. Returns that frame.
 */
export function onlyTerminal(events: readonly HarnessEvent[], describe: () => string): TerminalEvent {
  const terminals = events.filter((event): event is TerminalEvent => event.type === "terminal");
  const last = events.at(-1);
  if (terminals.length !== 1 || last?.type !== "terminal")
    throw new Error(`expected exactly one terminal frame, last; got ${terminals.length}: ${describe()}`);
  return last;
}

/**
 * Polls a registry directory and remembers the most entries seen at once, to show that sessions overlapped
 * (each one's reaper then ran while others' entries were live).
 */
export function watchRegistryPeak(registryDir: string, intervalMs = 20): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const names = await readdir(registryDir).catch(() => []);
      peak = Math.max(peak, names.filter((name) => name.endsWith(".json")).length);
      await sleep(intervalMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}

/** One finished session as {@link expectAllCompletedAndNothingLeft} checks it. */
export interface FinishedSession {
  events: readonly HarnessEvent[];
  /** The CLI's exit code (CLI sessions only). */
  exitCode?: number | null;
  /** `session.result` (library sessions only): must be the stream's terminal frame. */
  terminal?: TerminalEvent;
  describe(): string;
}

/**
 * Asserts that every session completed with `finalMessage` (exit 0 for a CLI session), with exactly one terminal
 * frame, last, each on an app-server of its own; then that nothing they started is left: none of those
 * app-servers, no process carrying `marker`, an empty registry directory.
 */
export async function expectAllCompletedAndNothingLeft(
  sessions: readonly FinishedSession[],
  finalMessage: string,
  left: { marker: string; registryDir: string; pids: Set<number> },
): Promise<void> {
  for (const session of sessions) {
    if (session.exitCode !== undefined) expect(session.exitCode, session.describe()).toBe(0);
    const terminal = onlyTerminal(session.events, session.describe);
    if (session.terminal !== undefined) expect(terminal).toEqual(session.terminal);
    expect(terminal.outcome, session.describe()).toBe("completed");
    expect(terminal.finalMessage).toBe(finalMessage);
    const pid = appServerPid(session.events);
    expect(pid, session.describe()).toEqual(expect.any(Number));
    if (pid !== null) left.pids.add(pid);
  }
  expect(left.pids.size).toBe(sessions.length);
  expect(stillAlive(left.pids).map(describeProcess)).toEqual([]);
  expect(processesWithMarker(left.marker).map(describeProcess)).toEqual([]);
  expect(await readdir(left.registryDir)).toEqual([]);
}

/**
 * Starts `count` `rennet codex run --json --codex-bin <codex> "<prompt> <index>"` processes at once (each kept in
 * `runs`, for the caller's cleanup), waits for all, and asserts that they overlapped: later ones reaped while
 * earlier ones' registry entries (in `<RENNET_STATE_DIR>/spawned`) were live. Returns them as finished sessions.
 */
export async function runCliSessionsAtOnce(
  count: number,
  codex: string,
  prompt: string,
  options: { env: NodeJS.ProcessEnv; cwd: string; runs: CliProcess[] },
): Promise<FinishedSession[]> {
  const stateDir = options.env.RENNET_STATE_DIR;
  if (!stateDir) throw new Error("runCliSessionsAtOnce needs RENNET_STATE_DIR in env: a private registry");
  const registry = watchRegistryPeak(path.join(stateDir, "spawned"));
  const started: CliProcess[] = [];
  for (let index = 0; index < count; index++) {
    const args = ["codex", "run", "--json", "--codex-bin", codex, `${prompt} ${index}`];
    started.push(startCliProcess(args, { env: options.env, cwd: options.cwd }));
  }
  options.runs.push(...started);
  const codes = await Promise.all(started.map((run) => run.exit));
  expect(await registry.stop()).toBeGreaterThan(1);
  return started.map((run, index) => ({
    events: run.events(),
    exitCode: codes[index],
    describe: () => `session ${index}: ${run.stdout()}\n${run.stderr()}`,
  }));
}
