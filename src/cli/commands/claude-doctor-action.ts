import { resolve } from "node:path";
import { discoverClaude, type ClaudeDiscoveryReport } from "../../claude/discovery/discover-claude.js";
import { formatClaudeProjectTrust } from "../../claude/trust/format-project-trust.js";
import {
  checkClaudeProjectTrust,
  type ClaudeProjectTrustReport,
} from "../../claude/trust/project-settings.js";
import { formatDoctorReport } from "../../discovery/format-doctor-report.js";
import type { ResolvedCliIo } from "../cli-io.js";
import { absolutizeCommand } from "../codex-target.js";
import { EXIT_CODES } from "../exit-codes.js";
import { cancellableReport, writeReport } from "../report-command.js";
import { UsageError } from "../usage-error.js";

const COMMAND = "rennet claude doctor";

/** What the command's flags hold, as the command-line parser reads them. */
export interface RawClaudeDoctorOptions {
  json?: boolean;
  refresh?: boolean;
  claudeBin?: string;
  cwd?: string;
  trustProject?: boolean;
  /** `false` when `--no-color` was given. */
  color: boolean;
}

/** The doctor's report: discovery, and the trust a turn in the directory would get (or why it was not checked). */
export type ClaudeDoctorOutput = ClaudeDiscoveryReport & {
  trust?: ClaudeProjectTrustReport;
  trustError?: string;
};

/** The action of `rennet claude doctor`; resolves with the exit code (0 available, 3 unavailable). */
export async function runClaudeDoctor(raw: RawClaudeDoctorOptions, io: ResolvedCliIo): Promise<number> {
  if (raw.claudeBin === "")
    throw new UsageError("--claude-bin is empty: give the path of the claude executable", COMMAND);
  if (raw.cwd === "") throw new UsageError("--cwd is empty: give a directory", COMMAND);
  const report = await cancellableReport(io, (signal) =>
    discoverClaude({
      env: io.env,
      cwd: raw.cwd ?? io.cwd,
      mode: "all",
      ...(io.env.HOME ? { homedir: io.env.HOME } : {}),
      cache: raw.refresh ? "refresh" : "use",
      signal,
      ...(raw.claudeBin !== undefined ? { claudeBin: absolutizeCommand(raw.claudeBin, io.cwd) } : {}),
    }),
  );
  if (report === null) return EXIT_CODES.cancelled;
  const output: ClaudeDoctorOutput = { ...report };
  const cwd = raw.cwd === undefined ? io.cwd : resolve(io.cwd, raw.cwd);
  try {
    output.trust = await checkClaudeProjectTrust({ cwd, trustProject: raw.trustProject === true });
  } catch (error) {
    output.trustError = error instanceof Error ? error.message : String(error);
  }
  writeReport<ClaudeDoctorOutput>(io, output, raw, formatClaudeDoctorOutput);
  return report.available ? EXIT_CODES.completed : EXIT_CODES.codexUnavailable;
}

function formatClaudeDoctorOutput(output: ClaudeDoctorOutput, options: { color: boolean }): string {
  const sections = [formatDoctorReport(output, options)];
  if (output.trust) sections.push(formatClaudeProjectTrust(output.trust, options));
  if (output.trustError) sections.push(`Project trust: not checked (${output.trustError})\n`);
  return sections.join("\n");
}
