import type { DiscoveryReport } from "../../discovery/discovery-report.js";
import { discoverCodex } from "../../codex/discovery/discover.js";
import { formatDoctorReport } from "../../discovery/format-doctor-report.js";
import { formatProjectTrustReport } from "../../codex/trust/format-project-trust.js";
import { checkProjectTrust, type ProjectTrustReport } from "../../codex/trust/project-trust-check.js";
import { formatDriftReport } from "../../codex/versions/drift/format-drift-report.js";
import { checkSchemaDrift, type SchemaDriftReport } from "../../codex/versions/drift/schema-drift.js";
import type { ResolvedCliIo } from "../cli-io.js";
import { resolve } from "node:path";
import { absolutizeCommand } from "../codex-target.js";
import { EXIT_CODES } from "../exit-codes.js";
import { cancellableReport, writeReport } from "../report-command.js";
import { UsageError } from "../usage-error.js";
import { errorMessage } from "../../errors.js";

const COMMAND = "rennet codex doctor";

/** What the command's flags hold, as the command-line parser reads them. */
export interface RawDoctorOptions {
  json?: boolean;
  refresh?: boolean;
  /** `false` when `--no-drift` was given. */
  drift?: boolean;
  codexBin?: string;
  cwd?: string;
  /** `false` when `--no-color` was given. */
  color: boolean;
}

/** The action of `rennet codex doctor`; resolves with the exit code. */
export async function runCodexDoctor(raw: RawDoctorOptions, io: ResolvedCliIo): Promise<number> {
  if (raw.codexBin === "")
    throw new UsageError("--codex-bin is empty: give the path of the codex executable", COMMAND);
  if (raw.cwd === "") throw new UsageError("--cwd is empty: give a directory", COMMAND);
  const formatDoctorOutput = (output: DoctorOutput, options: { color: boolean }): string => {
    const sections = [formatDoctorReport(output, options)];
    if (output.drift) sections.push(formatDriftReport(output.drift, options));
    if (output.trust) sections.push(formatProjectTrustReport(output.trust, options));
    if (output.trustError) sections.push(`Project trust: not checked (${output.trustError})\n`);
    return sections.map((text) => (text.endsWith("\n") ? text : `${text}\n`)).join("\n");
  };
  const report = await cancellableReport(io, (signal) =>
    discoverCodex({
      env: io.env,
      cwd: raw.cwd ?? io.cwd,
      mode: "all",
      ...(io.env.HOME ? { homedir: io.env.HOME } : {}),
      cache: raw.refresh ? "refresh" : "use",
      signal,
      ...(raw.codexBin !== undefined ? { codexBin: absolutizeCommand(raw.codexBin, io.cwd) } : {}),
    }),
  );
  if (report === null) return EXIT_CODES.cancelled;
  let drift: SchemaDriftReport | null = null;
  if (raw.drift !== false && report.available && report.chosen) {
    const chosen = report.chosen;
    drift = await cancellableReport(io, (signal) =>
      checkSchemaDrift({ codex: chosen, env: io.env, refresh: raw.refresh === true, signal }),
    );
    if (drift === null) return EXIT_CODES.cancelled;
  }
  const output: DoctorOutput = drift ? { ...report, drift } : { ...report };
  if (report.available && report.chosen) {
    const chosen = report.chosen;
    const cwd = raw.cwd === undefined ? io.cwd : resolve(io.cwd, raw.cwd);
    try {
      const trust = await cancellableReport(io, (signal) =>
        checkProjectTrust({ codex: chosen, cwd, env: io.env, signal }),
      );
      if (trust === null) return EXIT_CODES.cancelled;
      output.trust = trust;
    } catch (error) {
      output.trustError = errorMessage(error);
    }
  }
  writeReport<DoctorOutput>(io, output, raw, formatDoctorOutput);
  return report.available ? EXIT_CODES.completed : EXIT_CODES.codexUnavailable;
}

/**
 * The doctor's report: discovery, plus the chosen binary's schema drift when it was checked, and the trust a
 * turn in the directory would get (or why that could not be checked).
 */
export type DoctorOutput = DiscoveryReport & {
  drift?: SchemaDriftReport;
  trust?: ProjectTrustReport;
  trustError?: string;
};
