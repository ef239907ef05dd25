import type { TerminalOutcome } from "../harness/events.js";

/** Process exit codes of `rennet`. Stable: scripts depend on them. */
export const EXIT_CODES = {
  /** The turn completed (or help/version was printed). */
  completed: 0,
  /** The turn failed (turn, jsonrpc, exit, spawn or parse failure). */
  failed: 1,
  /** Bad command line: unknown option, missing or empty prompt, bad `--cwd` or `--timeout`. */
  usage: 2,
  /** Reserved: no usable Codex was found (discovery). */
  codexUnavailable: 3,
  /** The turn was cancelled (SIGINT/SIGTERM, or codex interrupted it). */
  cancelled: 130,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

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
