import { EXIT_CODES } from "./exit-codes.js";
import { CODEX_WORDS, type CliHarnessWords } from "./turn-option-specs.js";

/** An "Exit codes:" help section: one line per code, the meanings aligned. */
function exitCodesHelp(rows: ReadonlyArray<readonly [code: number, meaning: string]>): string {
  return ["Exit codes:", ...rows.map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`)].join(
    "\n",
  );
}

/** The exit-code table of the turn commands of the harnesses `harnesses` names (one command's, or the top page's). */
export function turnExitCodesHelp(...harnesses: [CliHarnessWords, ...CliHarnessWords[]]): string {
  const exe = harnesses.map((words) => words.executable).join(" or ");
  const agent = harnesses.length === 1 ? harnesses[0].agent : "Agent";
  const doctors = harnesses.map((words) => `rennet ${words.executable} doctor`).join(", ");
  return exitCodesHelp([
    [EXIT_CODES.completed, "the turn completed (also: --help, --version)"],
    [
      EXIT_CODES.failed,
      `the turn failed (model error, ${exe} exited or could not be started, deadline expired, …)`,
    ],
    [EXIT_CODES.usage, "usage error: unknown option, missing or empty prompt, bad --cwd or --timeout"],
    [
      EXIT_CODES.agentUnavailable,
      `${agent} unavailable: discovery found no working ${exe} (see: ${doctors})`,
    ],
    [
      EXIT_CODES.cancelled,
      `cancelled (SIGINT/SIGTERM/SIGHUP, stdout closed by its reader, or ${exe} interrupted the turn)`,
    ],
  ]);
}

/** The exit-code table shared by every Codex `--help`. */
export const EXIT_CODES_HELP = turnExitCodesHelp(CODEX_WORDS);

/** The "Environment:" section of a command of the harnesses `harnesses` names. */
export function environmentHelp(...harnesses: [CliHarnessWords, ...CliHarnessWords[]]): string {
  const variables = harnesses.map(
    (words) => [`RENNET_${words.executable.toUpperCase()}_BIN`, words] as const,
  );
  const width = Math.max(...variables.map(([variable]) => variable.length)) + 2;
  return [
    "Environment:",
    ...variables.map(
      ([variable, words]) =>
        `  ${variable.padEnd(width)}the ${words.executable} executable discovery tries first (it wins when it passes every probe)`,
    ),
    `  ${"NO_COLOR".padEnd(width)}set to a non-empty value to disable colours (colours are only used on a terminal)`,
  ].join("\n");
}

export const ENVIRONMENT_HELP = environmentHelp(CODEX_WORDS);

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
  agentUnavailable: string;
}): string {
  return exitCodesHelp([
    [EXIT_CODES.completed, meanings.completed],
    ...(meanings.failed === undefined ? [] : [[EXIT_CODES.failed, meanings.failed] as const]),
    [EXIT_CODES.usage, "usage error"],
    [EXIT_CODES.agentUnavailable, meanings.agentUnavailable],
    [EXIT_CODES.cancelled, "cancelled (SIGINT/SIGTERM/SIGHUP)"],
  ]);
}

/** The "Output:" section of a command that streams a turn. */
export const STREAM_OUTPUT_HELP = [
  "Output:",
  "  default  the assistant's text streams to stdout; tool activity ($ command, exit code, file edits, MCP",
  "           calls), warnings and a final one-line outcome with token usage go to stderr",
  "  --json   one harness event per line on stdout (see docs/events.md), ending with the `terminal` event;",
  "           nothing else is written to stdout, diagnostics go to stderr",
].join("\n");

/** The "Cancelling:" section of a turn command of the harness `words` names. */
export function signalsHelp(words: CliHarnessWords): string {
  const exe = words.executable;
  const asks =
    words.harness === "codex"
      ? [
          "  Ctrl-C (SIGINT), SIGTERM or SIGHUP asks codex to stop the turn (turn/interrupt), waits at most 2 s, then",
          "  kills codex's whole process tree; the exit code is 130 and --json still prints the `cancelled` terminal",
          "  event.",
        ]
      : [
          "  Ctrl-C (SIGINT), SIGTERM or SIGHUP asks claude to stop the turn (its interrupt control request), waits at",
          "  most 2 s, then kills claude's whole process tree; the exit code is 130 and --json still prints the",
          "  `cancelled` terminal event.",
        ];
  return [
    "Cancelling:",
    ...asks,
    `  A second Ctrl-C does not skip that bounded wait (leaving early could orphan ${exe}'s commands).`,
    `  While ${exe} is still being found, a signal stops discovery and its probes: exit 130, and no event`,
    "  is printed, since no turn exists yet.",
  ].join("\n");
}
