import type { TerminalEvent, TerminalOutcome } from "../harness/events.js";

/** Process exit codes of `rennet`. Stable: scripts depend on them. */
export const EXIT_CODES = {
  /** The turn completed (or help/version was printed). */
  completed: 0,
  /** The turn failed (turn, jsonrpc, exit, spawn or parse failure). */
  failed: 1,
  /** Bad command line: unknown option, missing or empty prompt, bad `--cwd` or `--timeout`. */
  usage: 2,
  /** No usable agent: none found, the one given could not be used, or it is older than the oldest supported. */
  agentUnavailable: 3,
  /** The turn was cancelled (SIGINT/SIGTERM/SIGHUP, stdout closed, or the agent interrupted it). */
  cancelled: 130,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** A harness's failure code that means "no usable agent" (exit 3): `<HARNESS>_UNAVAILABLE`, `…_UNSUPPORTED_VERSION`. */
const UNAVAILABLE_CODE = /^[A-Z]+_(?:UNAVAILABLE|UNSUPPORTED_VERSION)$/;

/** Whether an error code means "no usable agent" (the CLI exits 3). Pure. */
export function isUnavailableCode(code: string): boolean {
  return UNAVAILABLE_CODE.test(code);
}

/**
 * The exit code for a turn's terminal frame: its outcome, and 3 for a `spawn` failure that found no usable agent.
 * Pure.
 */
export function exitCodeForTerminal(terminal: Pick<TerminalEvent, "outcome" | "failure">): ExitCode {
  const failure = terminal.failure;
  if (failure?.source === "spawn" && failure.code !== undefined && isUnavailableCode(failure.code))
    return EXIT_CODES.agentUnavailable;
  return exitCodeForOutcome(terminal.outcome);
}

/** The exit code for a turn's terminal outcome. Pure. */
export function exitCodeForOutcome(outcome: TerminalOutcome): ExitCode {
  switch (outcome) {
    case "completed":
      return EXIT_CODES.completed;
    case "cancelled":
      return EXIT_CODES.cancelled;
    default:
      return EXIT_CODES.failed;
  }
}
