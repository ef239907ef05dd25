/**
 * Codex 0.131–0.166 keep their state in a SQLite database under CODEX_HOME and migrate it when an app-server
 * starts. Several app-servers starting at once on a CODEX_HOME whose database is new or older than the binary
 * (a first run, an upgrade) run the same migrations concurrently; the losers exit with code 1 before answering
 * `initialize`, saying "failed to initialize sqlite state runtime" (0.135 on) or "… sqlite state db" (0.131–
 * 0.134) on stderr. Measured: 8 app-servers at once on a fresh CODEX_HOME, 4–85 % of them exit so; the database
 * is left migrated, and a loser started again once the winner is done answers normally. 0.130 and older, and
 * 0.168 on, do not race.
 *
 * A start that failed so is therefore repeated, a bounded number of times, after a short randomised wait (the
 * waits of concurrent losers spread out); nothing had been asked of that codex yet.
 */
import type { WarningEvent, EventBase } from "../../harness/events.js";

const STATE_DB_RACE = /failed to initialize (?:sqlite )?state (?:runtime|db)\b/;

/** How many times an app-server is started, at most, while its starts fail with the state-database race. */
export const STATE_DB_RACE_STARTS = 4;

/** The `method` of the `warning` event a session emits when it starts codex again after the race. */
export const STATE_DB_RACE_WARNING = "rennet/stateDbRaceRestart";

/** True when codex's stderr says its state database could not be initialized (see the module comment). Pure. */
export function isStateDbRace(stderr: string): boolean {
  return STATE_DB_RACE.test(stderr);
}

/**
 * The wait before start number `failedStarts + 1`: 50–150 ms after the first failed start, 100–300 ms after the
 * second, and so on. `random` returns a number in [0, 1).
 */
export function stateDbRaceRetryDelayMs(failedStarts: number, random: () => number = Math.random): number {
  return Math.round(failedStarts * (50 + 100 * random()));
}

/** A start that lost the race and is being repeated. */
export interface StateDbRaceRestart {
  exitCode: number | null;
  signal: string | null;
  stderrTail: string;
  /** The wait before the next start. */
  delayMs: number;
  /** The number of the next start (2 for the first restart), of at most {@link STATE_DB_RACE_STARTS}. */
  nextStart: number;
}

/** The `warning` a session emits when it starts codex again after the race. Pure. */
export function stateDbRaceWarning(restart: StateDbRaceRestart): Omit<WarningEvent, keyof EventBase> {
  return {
    type: "warning",
    method: STATE_DB_RACE_WARNING,
    message:
      `codex app-server exited with code ${restart.exitCode} before answering initialize: its state database was ` +
      `being initialized by another codex starting at the same time; starting it again in ${restart.delayMs} ms ` +
      `(start ${restart.nextStart} of at most ${STATE_DB_RACE_STARTS})`,
    native: { exitCode: restart.exitCode, signal: restart.signal, stderrTail: restart.stderrTail },
  };
}
