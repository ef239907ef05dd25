import { discoverClaude, type ClaudeDiscoveryReport } from "../../claude/discovery/discover-claude.js";
import { formatClaudeProjectTrust } from "../../claude/trust/format-project-trust.js";
import {
  checkClaudeProjectTrust,
  type ClaudeProjectTrustReport,
} from "../../claude/trust/project-settings.js";
import { formatDoctorReport } from "../../discovery/format-doctor-report.js";
import type { ResolvedCliIo } from "../cli-io.js";
import { CLAUDE_WORDS } from "../turn-option-specs.js";
import { doctorTrust, runDoctor, type DoctorTrust, type RawDoctorFlags } from "./doctor-action.js";

/** What the command's flags hold, as the command-line parser reads them. */
export interface RawClaudeDoctorOptions extends RawDoctorFlags {
  trustProject?: boolean;
}

/** The doctor's report: discovery, and the trust a turn in the directory would get (or why it was not checked). */
export type ClaudeDoctorOutput = ClaudeDiscoveryReport & DoctorTrust<ClaudeProjectTrustReport>;

/** The action of `rennet claude doctor`; resolves with the exit code (0 available, 3 unavailable). */
export function runReport(raw: RawClaudeDoctorOptions, io: ResolvedCliIo): Promise<number> {
  return runDoctor(CLAUDE_WORDS, raw, io, {
    discover: (request, claudeBin) =>
      discoverClaude({ ...request, ...(claudeBin !== undefined ? { claudeBin } : {}) }),
    complete: async (report, cwd) => ({
      ...report,
      ...(await doctorTrust(() => checkClaudeProjectTrust({ cwd, trustProject: raw.trustProject === true }))),
    }),
    format: formatClaudeDoctorOutput,
  });
}

function formatClaudeDoctorOutput(output: ClaudeDoctorOutput, options: { color: boolean }): string {
  const sections = [formatDoctorReport(output, options)];
  if (output.trust) sections.push(formatClaudeProjectTrust(output.trust, options));
  return sections.join("\n");
}
