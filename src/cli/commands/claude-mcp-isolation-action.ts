import { formatClaudeMcpIsolation } from "../../claude/mcp/format-mcp-isolation.js";
import { runClaudeMcpIsolationCheck } from "../../claude/mcp/mcp-isolation.js";
import type { ResolvedCliIo } from "../cli-io.js";
import { resolveCliClaude } from "../claude-turn.js";
import { EXIT_CODES } from "../exit-codes.js";
import { printableText } from "../../printable-text.js";
import { cancellableReport, checkReportPaths, writeReport } from "../report-command.js";
import { CLAUDE_WORDS } from "../turn-option-specs.js";

const COMMAND = "rennet claude mcp-isolation";

/** What the command's flags hold, as the command-line parser reads them. */
export interface RawClaudeMcpIsolationOptions {
  json?: boolean;
  claudeBin?: string;
  cwd?: string;
  trustProject?: boolean;
  /** `false` when `--no-color` was given. */
  color: boolean;
}

/** The action of `rennet claude mcp-isolation`; resolves with the exit code (0 holds, 1 broken, 3 unprovable). */
export async function runReport(raw: RawClaudeMcpIsolationOptions, io: ResolvedCliIo): Promise<number> {
  const { cwd } = checkReportPaths(CLAUDE_WORDS, raw, io.cwd, COMMAND);
  const report = await cancellableReport(
    io,
    async (signal) => {
      const claude = (await resolveCliClaude(io, raw.claudeBin, cwd, signal)) ?? "claude";
      if (!raw.json)
        io.stderr.write(
          `checking MCP isolation of ${printableText(claude, Number.POSITIVE_INFINITY)} in ${printableText(cwd, Number.POSITIVE_INFINITY)} (two claude launches, no model turn)…\n`,
        );
      return runClaudeMcpIsolationCheck({
        claude,
        env: io.env,
        cwd,
        trustProject: raw.trustProject === true,
        signal,
        ...(io.launcher ? { launcher: io.launcher } : {}),
      });
    },
    (signal, first) => {
      if (first)
        io.stderr.write(`${signal}: stopping the MCP isolation check (its claude processes first)…\n`);
    },
  );
  if (report === null) return EXIT_CODES.cancelled;
  writeReport(io, report, raw, formatClaudeMcpIsolation);
  if (report.verdict === "error") {
    const reasons = report.runs.flatMap((run) =>
      // claude's own words (its stderr): escaped and cut as the report prints them
      run.error ? [`${run.policy} policy: ${printableText(run.error.message, 400)}`] : [],
    );
    io.stderr.write(`error: the MCP isolation check could not run: ${reasons.join("; ")}\n`);
    return EXIT_CODES.agentUnavailable;
  }
  return report.verdict === "ok" ? EXIT_CODES.completed : EXIT_CODES.failed;
}
