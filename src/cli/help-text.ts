import { EXIT_CODES } from "./exit-codes.js";

/** An "Exit codes:" help section: one line per code, the meanings aligned. */
function exitCodesHelp(rows: ReadonlyArray<readonly [code: number, meaning: string]>): string {
  return ["Exit codes:", ...rows.map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`)].join(
    "\n",
  );
}

/** The exit-code table shared by every `--help`. */
export const EXIT_CODES_HELP = exitCodesHelp([
  [EXIT_CODES.completed, "the turn completed (also: --help, --version)"],
  [
    EXIT_CODES.failed,
    "the turn failed (model error, codex exited or could not be started, deadline expired, …)",
  ],
  [EXIT_CODES.usage, "usage error: unknown option, missing or empty prompt, bad --cwd or --timeout"],
  [
    EXIT_CODES.codexUnavailable,
    "Codex unavailable: discovery found no working codex (see: rennet codex doctor)",
  ],
  [EXIT_CODES.cancelled, "cancelled (SIGINT/SIGTERM, or codex interrupted the turn)"],
]);

export const ENVIRONMENT_HELP = [
  "Environment:",
  "  RENNET_CODEX_BIN  the codex executable discovery tries first (it wins when it passes every probe)",
  "  NO_COLOR          set to a non-empty value to disable colours (colours are only used on a terminal)",
].join("\n");

/** An "Examples:" help section: one `$ command` line per example. */
export function examplesHelp(commands: readonly string[]): string {
  return ["Examples:", ...commands.map((command) => `  $ ${command}`)].join("\n");
}

/**
 * The "Exit codes:" help of a report command: what 0, 1 (when it can fail) and 3 mean for it, then the usage
 * error (2) and cancellation (130) every report command shares.
 */
export function reportExitCodesHelp(meanings: {
  completed: string;
  failed?: string;
  codexUnavailable: string;
}): string {
  return exitCodesHelp([
    [EXIT_CODES.completed, meanings.completed],
    ...(meanings.failed === undefined ? [] : [[EXIT_CODES.failed, meanings.failed] as const]),
    [EXIT_CODES.usage, "usage error"],
    [EXIT_CODES.codexUnavailable, meanings.codexUnavailable],
    [EXIT_CODES.cancelled, "cancelled (SIGINT/SIGTERM)"],
  ]);
}
