import { formatIsolationReport } from "../../codex/mcp/format-isolation-report.js";
import { isolationNotChecked, type McpIsolationReport } from "../../codex/mcp/mcp-isolation-report.js";
import type { ResolvedCliIo } from "../cli-io.js";
import { describeLaunch } from "../../discovery/executable-launch.js";
import { runMcpIsolationCheck } from "../../codex/mcp/mcp-isolation-check.js";
import { cliCodexTarget, resolveCliCodex } from "../codex-target.js";
import { EXIT_CODES } from "../exit-codes.js";
import { printableText } from "../../printable-text.js";
import { cancellableReport, checkReportPaths, writeReport } from "../report-command.js";
import { CODEX_WORDS } from "../turn-option-specs.js";

const COMMAND = "rennet codex mcp-isolation";

/** What codex (or the file system) said, for an error line on stderr: escaped and cut as the report prints it. */
const said = (text: string): string => printableText(text, 1_000);

/** What the command's flags hold, as the command-line parser reads them. */
export interface RawMcpIsolationOptions {
  json?: boolean;
  codexBin?: string;
  /** `false` when `--no-color` was given. */
  color: boolean;
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
export async function runReport(raw: RawMcpIsolationOptions, io: ResolvedCliIo): Promise<number> {
  checkReportPaths(CODEX_WORDS, raw, io.cwd, COMMAND);
  const report = await cancellableReport(
    io,
    async (signal) => {
      const codex = await resolveCliCodex(cliCodexTarget(io, raw.codexBin), io.cwd, signal);
      if (!raw.json) {
        io.stderr.write(
          `checking MCP isolation of ${printableText(describeLaunch(codex.launch), Number.POSITIVE_INFINITY)} in ${printableText(io.cwd, Number.POSITIVE_INFINITY)} (two app-server launches, no model turn)…\n`,
        );
      }
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
      `error: ${said(report.inventoryError?.message ?? "codex could not be started")}\n` +
        "(pass --codex-bin PATH or set RENNET_CODEX_BIN to your codex executable)\n",
    );
    return EXIT_CODES.agentUnavailable;
  }
  const tooOld = report.runs.find((run) => run.error?.code === "CODEX_UNSUPPORTED_VERSION");
  if (tooOld?.error) {
    io.stderr.write(`error: ${said(tooOld.error.message)}\n`);
    return EXIT_CODES.agentUnavailable;
  }
  if (report.verdict === "unproven") {
    const reasons = report.runs.flatMap((run) =>
      run.unproven ? [`${run.policy} policy: ${said(run.unproven)}`] : [],
    );
    io.stderr.write(`error: this Codex cannot prove MCP isolation: ${reasons.join("; ")}\n`);
    return EXIT_CODES.agentUnavailable;
  }
  if (isolationNotChecked(report)) {
    const reasons = [
      ...(report.inventoryError ? [`inventory: ${said(report.inventoryError.message)}`] : []),
      ...report.runs.flatMap((run) =>
        run.error ? [`${run.policy} policy: ${said(run.error.message)}`] : [],
      ),
    ];
    io.stderr.write(`error: the MCP isolation check could not run: ${reasons.join("; ")}\n`);
    return EXIT_CODES.agentUnavailable;
  }
  return report.verdict === "ok" ? EXIT_CODES.completed : EXIT_CODES.failed;
}
