/** One row of the OS process table, as far as tree walking and pid-reuse checks need it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Process group id; -1 when the platform did not report it. */
  pgid: number;
  /** Opaque start-time token: equal tokens for the same pid mean the same process (no pid reuse in between). */
  startTime: string;
  /** Scheduler state letter(s) as reported (`S`, `R`, `Z`, `Ss+`, …). */
  state: string;
}

/** A process named by pid plus start time, so that a reused pid is never mistaken for it. */
export interface ProcessIdentity {
  pid: number;
  startTime: string;
}

/** True when the state says the process still runs (not a zombie, not dead). Zombies cannot be killed again. */
export function isRunningState(state: string): boolean {
  const letter = state.charAt(0);
  return letter !== "" && letter !== "Z" && letter !== "X" && letter !== "x";
}

/**
 * Parses Linux `/proc/<pid>/stat`. Start time is field 22 (clock ticks after boot). The command name (field 2)
 * may contain spaces and parentheses, so fields are counted from the last `)`. Returns null on malformed text.
 */
export function parseProcStat(text: string): ProcessInfo | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 1 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  // fields after the command name, starting at field 3 (state)
  const rest = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const state = rest[0];
  const ppid = Number(rest[1]);
  const pgid = Number(rest[2]);
  const startTime = rest[19];
  if (!Number.isSafeInteger(pid) || pid <= 0 || !state || !Number.isSafeInteger(ppid)) return null;
  if (!Number.isSafeInteger(pgid) || startTime === undefined || !/^\d+$/.test(startTime)) return null;
  return { pid, ppid, pgid, startTime, state };
}

/** The `ps` arguments whose output {@link parsePsTable} reads (BSD/macOS and procps `ps` both accept them). */
export const PS_TABLE_ARGS: readonly string[] = ["-A", "-o", "pid=,ppid=,pgid=,stat=,lstart="];

/**
 * Parses `ps -A -o pid=,ppid=,pgid=,stat=,lstart=` output (run with `LC_ALL=C`). `lstart` is the rest of the
 * line (e.g. `Mon Dec  2 13:30:39 2026`); its whitespace is normalized so it compares equal across calls.
 * Lines that do not match are skipped.
 */
export function parsePsTable(text: string): ProcessInfo[] {
  const rows: ProcessInfo[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S.*?)\s*$/.exec(line);
    if (!match) continue;
    const [, pid, ppid, pgid, state, lstart] = match;
    if (!pid || !ppid || !pgid || !state || !lstart) continue;
    rows.push({
      pid: Number(pid),
      ppid: Number(ppid),
      pgid: Number(pgid),
      state,
      startTime: lstart.replace(/\s+/g, " "),
    });
  }
  return rows;
}
