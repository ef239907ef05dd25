import type { DiscoverExecutableOptions } from "../../discovery/discover-executable.js";
import type { ResolvedCliIo } from "../cli-io.js";
import { absolutizeCommand } from "../executable-target.js";
import { errorMessage } from "../../errors.js";
import { EXIT_CODES } from "../exit-codes.js";
import { printableText } from "../../printable-text.js";
import { cancellableReport, checkReportPaths, writeReport } from "../report-command.js";
import type { CliHarnessWords } from "../turn-option-specs.js";

/** The flags every `rennet <harness> doctor` has, as the command-line parser reads them. */
export interface RawDoctorFlags {
  json?: boolean;
  refresh?: boolean;
  /** `--codex-bin` (codex doctor). */
  codexBin?: string;
  /** `--claude-bin` (claude doctor). */
  claudeBin?: string;
  cwd?: string;
  /** `false` when `--no-color` was given. */
  color: boolean;
}

/** What a doctor asks of its harness's discovery: every candidate probed, the probe cache as `--refresh` says. */
export type DoctorDiscoveryRequest = Omit<DiscoverExecutableOptions, "explicitPath" | "launcher"> & {
  signal: AbortSignal;
};

/** How one harness's doctor discovers and what it adds to the discovery report. */
export interface DoctorSteps<Report extends { available: boolean }, Output extends DoctorTrust<unknown>> {
  /** Discovery with `request`; `bin` is the absolute `--codex-bin`/`--claude-bin`, the only candidate when given. */
  discover(request: DoctorDiscoveryRequest, bin: string | undefined): Promise<Report>;
  /** The whole report for `cwd` (absolute): discovery's and the harness's own sections; null when cancelled. */
  complete(report: Report, cwd: string): Promise<Output | null>;
  /** The text of the report's sections; a trust section that could not be checked is added after it. */
  format(output: Output, options: { color: boolean }): string;
}

/**
 * The action of `rennet <harness> doctor`: discovery of every candidate, then the harness's own sections, printed
 * as text or JSON. Resolves with the exit code: 0 available, 3 unavailable, 130 cancelled. Throws `UsageError`
 * for an empty executable flag or a `--cwd` that is not an existing directory, before discovery runs.
 */
export async function runDoctor<Report extends { available: boolean }, Output extends DoctorTrust<unknown>>(
  words: CliHarnessWords,
  raw: RawDoctorFlags,
  io: ResolvedCliIo,
  steps: DoctorSteps<Report, Output>,
): Promise<number> {
  const { bin, cwd } = checkReportPaths(words, raw, io.cwd, `rennet ${words.executable} doctor`);
  const report = await cancellableReport(io, (signal) =>
    steps.discover(
      {
        env: io.env,
        cwd,
        mode: "all",
        ...(io.env.HOME ? { homedir: io.env.HOME } : {}),
        cache: raw.refresh ? "refresh" : "use",
        signal,
      },
      bin === undefined ? undefined : absolutizeCommand(bin, io.cwd),
    ),
  );
  if (report === null) return EXIT_CODES.cancelled;
  const output = await steps.complete(report, cwd);
  if (output === null) return EXIT_CODES.cancelled;
  writeReport(io, output, raw, (value, options) => {
    const text = steps.format(value, options);
    return value.trustError === undefined
      ? text
      : `${text}\nProject trust: not checked (${printableText(value.trustError, Number.POSITIVE_INFINITY)})\n`;
  });
  return report.available ? EXIT_CODES.completed : EXIT_CODES.agentUnavailable;
}

/** The trust section of a doctor's report: the trust a turn in the directory would get, or why it was not checked. */
export interface DoctorTrust<Trust> {
  trust?: Trust;
  trustError?: string;
}

/** The trust section from `check`: its report, or the reason it failed; null when a signal cancelled it. */
export async function doctorTrust<Trust>(
  check: () => Promise<Trust | null>,
): Promise<DoctorTrust<Trust> | null> {
  try {
    const trust = await check();
    return trust === null ? null : { trust };
  } catch (error) {
    return { trustError: errorMessage(error) };
  }
}
