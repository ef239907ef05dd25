import type { ResolvedCliIo } from "../cli-io.js";
import type { OptionSpec, ParsedCommand } from "../command-line.js";
import { examplesHelp, reportExitCodesHelp } from "../help-text.js";
import type { CliHarnessWords } from "../turn-option-specs.js";

/**
 * What every report command (`doctor`, `mcp-isolation` of each harness) shares in its options and help, and how
 * its action loads. This module is part of what `rennet --help` loads: it holds specs and text only.
 */

/** The action a report command's module exports as `runReport`; resolves with the exit code. */
export type ReportAction<O> = (raw: O, io: ResolvedCliIo) => Promise<number>;

/** `--json` of a report command. */
export const REPORT_JSON_OPTION: OptionSpec = {
  name: "json",
  description: "print the report as one JSON object on stdout",
};

/** `--codex-bin PATH` / `--claude-bin PATH` of a report command: the one executable it checks. */
export function reportBinOption(words: CliHarnessWords, description: string): OptionSpec {
  return { name: words.binFlag, value: "path", description };
}

/** `--no-color` of a report command whose output is a `report` or a `table`. */
export function reportNoColorOption(output: "report" | "table"): OptionSpec {
  return { name: "no-color", description: `never colour the ${output}` };
}

/** `--trust-project` of a Claude Code report command, saying what the check then does. */
export function trustProjectOption(description: string): OptionSpec {
  return { name: "trust-project", description };
}

/**
 * The options of `rennet <harness> doctor`, in help order: `afterRefresh` and `afterCwd` are the harness's own
 * options and stand after `--refresh` and after `--cwd`.
 */
export function doctorOptions(
  words: CliHarnessWords,
  own: { afterRefresh?: readonly OptionSpec[]; afterCwd?: readonly OptionSpec[] },
): OptionSpec[] {
  return [
    REPORT_JSON_OPTION,
    { name: "refresh", description: "probe again instead of using cached results" },
    ...(own.afterRefresh ?? []),
    reportBinOption(words, `probe exactly this ${words.executable} executable (no other candidate)`),
    {
      name: "cwd",
      value: "dir",
      description:
        "the working directory whose locus and project trust to check (a WSL path checks that distribution)",
    },
    ...(own.afterCwd ?? []),
    reportNoColorOption("report"),
  ];
}

/** The "Exit codes:" help of `rennet <harness> doctor`. */
export function doctorExitHelp(words: CliHarnessWords): string {
  return reportExitCodesHelp({
    completed: `${words.agent} is available`,
    codexUnavailable: `${words.agent} is unavailable (the report says why for every candidate)`,
  });
}

/** The "Examples:" help of `rennet <harness> doctor`: the examples every harness shares, then `more`. */
export function doctorExamplesHelp(words: CliHarnessWords, more: readonly string[]): string {
  const command = `rennet ${words.executable} doctor`;
  return examplesHelp([
    command,
    `${command} --json | jq '.chosen'`,
    `${command} --refresh           # ignore cached probe results`,
    ...more,
  ]);
}

/**
 * The `run` of a report command: its action module, which `load` loads (pass `loadModule` with the module's
 * literal path), loads when the command runs, not when another command is parsed.
 */
export function runReportCommand<O>(
  load: () => Promise<{ runReport: ReportAction<O> }>,
): (parsed: ParsedCommand<O>, io: ResolvedCliIo) => Promise<number> {
  return async ({ options }, io) => (await load()).runReport(options, io);
}

/**
 * The "Exit codes:" help of `rennet <harness> mcp-isolation`: isolation holds when under each policy only the
 * requested server `ran` and it connected; `broken` says how it fails (1), `unavailable` what exit 3 means.
 */
export function mcpIsolationExitHelp(ran: string, broken: string, unavailable: string): string {
  return reportExitCodesHelp({
    completed: `isolation holds: under each policy only the requested server ${ran}, and it connected`,
    failed: `it does not: ${broken}`,
    codexUnavailable: unavailable,
  });
}

/** The "Examples:" help of `rennet <harness> mcp-isolation`: the bare command, then `more`. */
export function mcpIsolationExamplesHelp(words: CliHarnessWords, more: readonly string[]): string {
  return examplesHelp([`rennet ${words.executable} mcp-isolation`, ...more]);
}
