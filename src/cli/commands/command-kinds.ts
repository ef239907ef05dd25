import { loadModule } from "../../load-module.js";
import type { HarnessName } from "../../harness/event-base.js";
import type { ResolvedCliIo } from "../cli-io.js";
import { defineCommand, type CommandSpec, type OptionSpec, type ParsedCommand } from "../command-line.js";
import type * as CreateRendererModule from "../create-renderer.js";
import type { RendererFactory } from "../event-renderer.js";
import { environmentHelp, examplesHelp, reportExitCodesHelp } from "../help-text.js";
import type * as JsonRendererModule from "../json-renderer.js";
import type * as TerminalApprovalsModule from "../terminal-approvals.js";
import type { TerminalApprovalsFactory } from "../terminal-approvals.js";
import { RennetError } from "../../errors.js";
import type { RunTurnCommand } from "../turn-action.js";
import type { CliHarnessWords } from "../turn-option-specs.js";
import type { RawTurnOptions } from "../turn-options.js";

/**
 * The two kinds of `rennet` command and what the commands of each kind share. A turn command (`run`, `exec`)
 * loads its action and its renderer when it runs; a report command (`doctor`, `mcp-isolation`) loads its action
 * alone, and shares its options and help with the other harness's. This module is part of what every command
 * line loads (`rennet --help` included): it holds specs, text and the loading door, nothing that runs a command.
 */

/**
 * The dispatch of a turn-running command (`run`, `exec` of each harness): loads the command's action module (client,
 * runner), the one renderer its output needs and, for `--ask`, the terminal's approval prompts, in parallel, when
 * the command runs, then runs it. `--json`
 * loads none of the human output's machinery (colours, spinner, text layout): the stream goal of
 * docs/performance.md counts every module a `--json` turn loads.
 */
export async function dispatchTurnCommand<Raw extends RawTurnOptions>(
  parsed: { argument: string | undefined; options: Raw },
  io: ResolvedCliIo,
  loadAction: () => Promise<{ runTurn: RunTurnCommand<Raw> }>,
): Promise<number> {
  const { argument, options } = parsed;
  const [action, renderer, askTerminal] = await Promise.all([
    loadAction(),
    loadRenderer(options.json === true),
    options.ask === true ? loadTerminalApprovals() : noTerminalApprovals,
  ]);
  return action.runTurn(argument ?? "", options, io, { renderer, askTerminal });
}

/** The terminal's approval prompts: loaded for `--ask` alone. */
async function loadTerminalApprovals(): Promise<TerminalApprovalsFactory> {
  const { terminalApprovals } = await loadModule<typeof TerminalApprovalsModule>(
    new URL("../terminal-approvals.js", import.meta.url),
    () => import("../terminal-approvals.js"),
  );
  return terminalApprovals;
}

/** What a turn without `--ask` is given instead: never called (run-turn-command asks only for `--ask`). */
const noTerminalApprovals: TerminalApprovalsFactory = () => {
  throw new RennetError(
    "INTERNAL_ERROR",
    "the terminal's approval prompts were not loaded: the turn has no --ask",
  );
};

async function loadRenderer(json: boolean): Promise<RendererFactory> {
  if (json) {
    const { JsonRenderer } = await loadModule<typeof JsonRendererModule>(
      new URL("../json-renderer.js", import.meta.url),
      () => import("../json-renderer.js"),
    );
    return (_options, io) => new JsonRenderer(io.stdout, io.stderr, io.isTTY.stdout);
  }
  const { createRenderer } = await loadModule<typeof CreateRendererModule>(
    new URL("../create-renderer.js", import.meta.url),
    () => import("../create-renderer.js"),
  );
  return createRenderer;
}

/** The action a report command's module exports as `runReport`; resolves with the exit code. */
export type ReportAction<O> = (raw: O, io: ResolvedCliIo) => Promise<number>;

/** `--json` of a report command. */
const REPORT_JSON_OPTION: OptionSpec = {
  name: "json",
  description: "print the report as one JSON object on stdout",
};

/** `--codex-bin PATH` / `--claude-bin PATH` of a report command: the one executable it checks. */
function reportBinOption(words: CliHarnessWords, description: string): OptionSpec {
  return { name: words.binFlag, value: "path", description };
}

/** `--no-color` of a report command whose output is a `report` or a `table`. */
function reportNoColorOption(output: "report" | "table"): OptionSpec {
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
        "the working directory whose locus and project trust to check (must exist; a WSL path checks that " +
        "distribution)",
    },
    ...(own.afterCwd ?? []),
    reportNoColorOption("report"),
  ];
}

/** The "Exit codes:" help of `rennet <harness> doctor`. */
export function doctorExitHelp(words: CliHarnessWords): string {
  return reportExitCodesHelp({
    completed: `${words.agent} is available`,
    agentUnavailable: `${words.agent} is unavailable (the report says why for every candidate)`,
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

/** What exits 0, 1 and 3 of `rennet <harness> mcp-isolation` mean for each harness's check. */
const MCP_ISOLATION_EXITS: Readonly<Record<HarnessName, Parameters<typeof reportExitCodesHelp>[0]>> = {
  codex: {
    completed: "isolation holds: under each policy only the requested server was enabled, and it connected",
    failed:
      "it does not: another server was enabled or started, the probe did not connect, or codex showed no " +
      "policy layer",
    agentUnavailable:
      "the codex executable could not be started, a step of the check could not run (nothing judged wrong), " +
      "or this Codex version cannot prove a point (the reason is printed)",
  },
  "claude-code": {
    completed: "isolation holds: under each policy only the requested server ran, and it connected",
    failed: "it does not: another server ran, or the loopback one did not connect",
    agentUnavailable:
      "Claude Code is unavailable, or it could not answer (too old to report its MCP servers, or it exited)",
  },
};

/** What one harness's `rennet <harness> mcp-isolation` says and loads; the rest is the same for every harness. */
export interface McpIsolationCommandText<O> {
  summary: string;
  description: string;
  /** `--codex-bin`/`--claude-bin`'s description, then the harness's own options (before `--no-color`). */
  options: readonly [binDescription: string, ...own: OptionSpec[]];
  /** The "What it proves:" help section. */
  proves: string;
  /** The "Output:" help: what the text shows, and the JSON report's main fields. */
  output: readonly [text: string, jsonFields: string];
  noColor: "report" | "table";
  /** Examples after the bare command. */
  examples: readonly string[];
  /** Loads the action module (pass `loadModule` with its literal path). */
  load: () => Promise<{ runReport: ReportAction<O> }>;
}

/** `rennet <harness> mcp-isolation [--json] [--<harness>-bin PATH] …`: the MCP isolation control of a harness. */
export function mcpIsolationCommand<O>(
  words: CliHarnessWords,
  text: McpIsolationCommandText<O>,
): CommandSpec {
  const [binDescription, ...own] = text.options;
  const [outputText, jsonFields] = text.output;
  return defineCommand<O>({
    name: "mcp-isolation",
    summary: text.summary,
    description: text.description,
    options: [
      REPORT_JSON_OPTION,
      reportBinOption(words, binDescription),
      ...own,
      reportNoColorOption(text.noColor),
    ],
    epilogue: [
      text.proves,
      [
        "Output:",
        `  default  ${outputText}`,
        `  --json   the report as one JSON object on stdout (${jsonFields})`,
      ].join("\n"),
      reportExitCodesHelp(MCP_ISOLATION_EXITS[words.harness]),
      environmentHelp(words),
      examplesHelp([`rennet ${words.executable} mcp-isolation`, ...text.examples]),
    ],
    run: runReportCommand(text.load),
  });
}
