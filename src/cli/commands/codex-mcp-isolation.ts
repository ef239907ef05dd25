import type { Command } from "commander";
import {
  formatIsolationReport,
  isolationNotChecked,
  type McpIsolationReport,
} from "../../codex/mcp/mcp-isolation-report.js";
import type { ResolvedCliIo } from "../cli-io.js";
import { describeLaunch } from "../../codex/codex-launch.js";
import { cliCodexClient, resolveCliCodex } from "../codex-target.js";
import type { CommandContext } from "../command-context.js";
import { EXIT_CODES } from "../exit-codes.js";
import { ENVIRONMENT_HELP, examplesHelp, helpEpilogue } from "../help-text.js";
import { cancellableReport, reportExitCodesHelp, writeReport } from "../report-command.js";
import { UsageError } from "../usage-error.js";

const COMMAND = "rennet codex mcp-isolation";

/** What the command's flags hold, as commander parses them. */
export interface RawMcpIsolationOptions {
  json?: boolean;
  codexBin?: string;
  /** `false` when `--no-color` was given. */
  color: boolean;
}

const PROVES_HELP = [
  "What it proves:",
  "  With your installed Codex and your real configuration (CODEX_HOME, and the .codex/config.toml of the",
  "  repository you run it in), and without any model turn, it:",
  "  1. lists the configured MCP servers (`codex mcp list --json`, repository servers included);",
  "  2. launches `codex app-server` under the empty policy (--mcp-none) and asks it for its effective",
  "     configuration (config/read) and, after thread/start, each server's runtime status",
  "     (mcpServerStatus/list, plus the thread's startup notifications);",
  "  3. does the same under a loopback-only policy (--mcp-server) with a throw-away MCP server it starts on",
  "     127.0.0.1, which must connect.",
  "  It prints one row per server with its state under each policy. Nothing is written to your Codex home:",
  "  threads are ephemeral and repository trust is stated per thread. Every codex process is stopped before",
  "  it exits; Ctrl-C (SIGINT) or SIGTERM stops it early.",
].join("\n");

const OUTPUT_HELP = [
  "Output:",
  "  default  the table on stdout (configured state, then `verdict config · runtime` per policy)",
  "  --json   the report as one JSON object on stdout (`ok`, `inventory`, `runs[].servers[]`, errors)",
].join("\n");

const EXIT_HELP = reportExitCodesHelp({
  completed: "isolation holds: under each policy only the requested server was enabled, and it connected",
  failed: "it does not: another server was enabled or started, the probe did not connect, or a step failed",
  codexUnavailable:
    "the codex executable could not be started, or this Codex version cannot prove a point (the reason is printed)",
});

const EXAMPLES_HELP = examplesHelp([
  "rennet codex mcp-isolation",
  "rennet codex mcp-isolation --json | jq '.runs[] | {policy, ok}'",
  "RENNET_CODEX_BIN=/opt/codex/bin/codex npm run real-mcp-isolation",
]);

/** `rennet codex mcp-isolation [--json] [--codex-bin PATH]`: the MCP isolation control. */
export function registerCodexMcpIsolation(parent: Command, context: CommandContext): void {
  parent
    .command("mcp-isolation")
    .summary("prove that an explicit MCP policy enables only the requested servers")
    .description(
      "Check, against your installed Codex and your real configuration, that Rennet's MCP policies hold: " +
        "under the empty policy no configured MCP server is enabled or started, and under a loopback-only " +
        "policy only the requested server is.",
    )
    .option("--json", "print the report as one JSON object on stdout")
    .option(
      "--codex-bin <path>",
      "check this codex executable (no discovery, no probe; npm's launcher is skipped)",
    )
    .option("--no-color", "never colour the table")
    .addHelpText("after", helpEpilogue(PROVES_HELP, OUTPUT_HELP, EXIT_HELP, ENVIRONMENT_HELP, EXAMPLES_HELP))
    .action(async (raw: RawMcpIsolationOptions) => {
      context.setExitCode(await runCodexMcpIsolation(raw, context.io));
    });
}

/**
 * Whether the report says codex itself could not be started (the inventory is the first thing it runs).
 * `listConfiguredMcpServers` reports a failed spawn as `MCP_INVENTORY_FAILED` "could not start …". Pure.
 */
export function codexCouldNotStart(report: McpIsolationReport): boolean {
  const error = report.inventoryError;
  return (
    error !== null && error.code === "MCP_INVENTORY_FAILED" && error.message.startsWith("could not start ")
  );
}

/** The action of `rennet codex mcp-isolation`; resolves with the exit code. */
export async function runCodexMcpIsolation(raw: RawMcpIsolationOptions, io: ResolvedCliIo): Promise<number> {
  if (raw.codexBin === "") {
    throw new UsageError("--codex-bin is empty: give the path of the codex executable", COMMAND);
  }
  const report = await cancellableReport(
    io,
    async (signal) => {
      const codex = await resolveCliCodex(cliCodexClient(io, raw.codexBin), io.cwd, signal);
      if (!raw.json) {
        io.stderr.write(
          `checking MCP isolation of ${describeLaunch(codex.launch)} in ${io.cwd} (two app-server launches, no model turn)…\n`,
        );
      }
      const { runMcpIsolationCheck } = await import("../../codex/mcp/mcp-isolation-check.js");
      return runMcpIsolationCheck({
        codex: codex.launch,
        env: io.env,
        cwd: io.cwd,
        signal,
        ...(io.launcher ? { launcher: io.launcher } : {}),
      });
    },
    (signal, first) => {
      if (first) {
        io.stderr.write(
          `${signal}: stopping the MCP isolation check (its codex processes are stopped first)…\n`,
        );
      }
    },
  );
  if (report === null) return EXIT_CODES.cancelled;
  writeReport(io, report, raw, formatIsolationReport);
  if (codexCouldNotStart(report)) {
    io.stderr.write(
      `error: ${report.inventoryError?.message ?? "codex could not be started"}\n` +
        "(pass --codex-bin PATH or set RENNET_CODEX_BIN to your codex executable)\n",
    );
    return EXIT_CODES.codexUnavailable;
  }
  const tooOld = report.runs.find((run) => run.error?.code === "CODEX_UNSUPPORTED_VERSION");
  if (tooOld?.error) {
    io.stderr.write(`error: ${tooOld.error.message}\n`);
    return EXIT_CODES.codexUnavailable;
  }
  if (report.verdict === "unproven") {
    const reasons = report.runs.flatMap((run) =>
      run.unproven ? [`${run.policy} policy: ${run.unproven}`] : [],
    );
    io.stderr.write(`error: this Codex cannot prove MCP isolation: ${reasons.join("; ")}\n`);
    return EXIT_CODES.codexUnavailable;
  }
  if (isolationNotChecked(report)) {
    const reasons = [
      ...(report.inventoryError ? [`inventory: ${report.inventoryError.message}`] : []),
      ...report.runs.flatMap((run) => (run.error ? [`${run.policy} policy: ${run.error.message}`] : [])),
    ];
    io.stderr.write(`error: the MCP isolation check could not run: ${reasons.join("; ")}\n`);
    return EXIT_CODES.codexUnavailable;
  }
  return report.verdict === "ok" ? EXIT_CODES.completed : EXIT_CODES.failed;
}
