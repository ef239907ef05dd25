import type { DiscoveryReport } from "../../discovery/discovery-report.js";
import { discoverCodex } from "../../codex/discovery/discover.js";
import { formatDoctorReport } from "../../discovery/format-doctor-report.js";
import { formatProjectTrustReport } from "../../codex/trust/format-project-trust.js";
import { checkProjectTrust, type ProjectTrustReport } from "../../codex/trust/project-trust-check.js";
import { formatDriftReport } from "../../codex/versions/drift/format-drift-report.js";
import { checkSchemaDrift, type SchemaDriftReport } from "../../codex/versions/drift/schema-drift.js";
import type { ResolvedCliIo } from "../cli-io.js";
import { cancellableReport } from "../report-command.js";
import { CODEX_WORDS } from "../turn-option-specs.js";
import { doctorTrust, runDoctor, type DoctorTrust, type RawDoctorFlags } from "./doctor-action.js";

/** What the command's flags hold, as the command-line parser reads them. */
export interface RawDoctorOptions extends RawDoctorFlags {
  /** `false` when `--no-drift` was given. */
  drift?: boolean;
}

/**
 * The doctor's report: discovery, plus the chosen binary's schema drift when it was checked, and the trust a
 * turn in the directory would get (or why that could not be checked).
 */
export type DoctorOutput = DiscoveryReport & { drift?: SchemaDriftReport } & DoctorTrust<ProjectTrustReport>;

/** The action of `rennet codex doctor`; resolves with the exit code. */
export function runReport(raw: RawDoctorOptions, io: ResolvedCliIo): Promise<number> {
  return runDoctor(CODEX_WORDS, raw, io, {
    discover: (request, codexBin) =>
      discoverCodex({ ...request, ...(codexBin !== undefined ? { codexBin } : {}) }),
    complete: (report, cwd) => completeCodexDoctor(report, cwd, raw, io),
    format: formatDoctorOutput,
  });
}

/** Discovery's report with the chosen binary's drift and the trust of `cwd`; null when a signal cancelled it. */
async function completeCodexDoctor(
  report: DiscoveryReport,
  cwd: string,
  raw: RawDoctorOptions,
  io: ResolvedCliIo,
): Promise<DoctorOutput | null> {
  const chosen = report.available ? report.chosen : undefined;
  if (!chosen) return { ...report };
  let drift: SchemaDriftReport | null = null;
  if (raw.drift !== false) {
    drift = await cancellableReport(io, (signal) =>
      checkSchemaDrift({ codex: chosen, env: io.env, refresh: raw.refresh === true, signal }),
    );
    if (drift === null) return null;
  }
  const trust = await doctorTrust(() =>
    cancellableReport(io, (signal) => checkProjectTrust({ codex: chosen, cwd, env: io.env, signal })),
  );
  if (trust === null) return null;
  return { ...report, ...(drift ? { drift } : {}), ...trust };
}

function formatDoctorOutput(output: DoctorOutput, options: { color: boolean }): string {
  const sections = [formatDoctorReport(output, options)];
  if (output.drift) sections.push(formatDriftReport(output.drift, options));
  if (output.trust) sections.push(formatProjectTrustReport(output.trust, options));
  return sections.map((text) => (text.endsWith("\n") ? text : `${text}\n`)).join("\n");
}
