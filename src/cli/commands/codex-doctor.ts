import type { Command } from "commander";
import type { DiscoveryReport } from "../../codex/discovery/discovery-report.js";
import type { SchemaDriftReport } from "../../codex/drift/schema-drift.js";
import type { ResolvedCliIo } from "../cli-io.js";
import { absolutizeCommand } from "../codex-target.js";
import type { CommandContext } from "../command-context.js";
import { EXIT_CODES } from "../exit-codes.js";
import { ENVIRONMENT_HELP, examplesHelp, helpEpilogue } from "../help-text.js";
import { cancellableReport, reportExitCodesHelp, writeReport } from "../report-command.js";
import { UsageError } from "../usage-error.js";

const COMMAND = "rennet codex doctor";

/** What the command's flags hold, as commander parses them. */
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

const WHAT_HELP = [
  "What it checks:",
  "  Every candidate codex, in rank order: RENNET_CODEX_BIN; your login shell's PATH; this process's PATH;",
  "  known install locations (~/.local/bin, npm's global bin, Homebrew, Volta, bun, asdf, mise, fnm, nvm, pnpm);",
  "  the ChatGPT/Codex desktop app bundles (macOS) last. Each candidate must be executable, print a version",
  "  (`--version`) and complete an app-server `initialize` handshake. The chosen one is the best-ranked",
  "  candidate that passes all three. Probe results are cached by real path, size, mtime and inode.",
  "  Then the schema drift check: it generates the chosen binary's JSON schema (`codex app-server",
  "  generate-json-schema`, with a throw-away CODEX_HOME) and reports, per method, field and enum value Rennet",
  "  sends or relies on, ok / missing / changed, and the notifications Rennet will pass through unknown.",
  "  Cached per binary (path, size, mtime) beside the probe cache; --refresh generates it again.",
].join("\n");

const EXIT_HELP = reportExitCodesHelp({
  completed: "Codex is available",
  codexUnavailable: "Codex is unavailable (the report says why for every candidate)",
});

const EXAMPLES_HELP = examplesHelp([
  "rennet codex doctor",
  "rennet codex doctor --json | jq '.chosen'",
  "rennet codex doctor --refresh           # ignore cached probe results",
  "rennet codex doctor --cwd '\\\\wsl.localhost\\Ubuntu\\home\\me\\repo'   # the Codex of a WSL repository",
]);

/** `rennet codex doctor [--json] [--refresh] [--codex-bin PATH] [--cwd DIR]`. */
export function registerCodexDoctor(parent: Command, context: CommandContext): void {
  parent
    .command("doctor")
    .summary("show which Codex would run, and why")
    .description(
      "Discover the installed Codex the way Rennet does before every turn, probe every candidate, and report " +
        "each one with its source, path, version, every probe's result and timing, and the chosen binary.",
    )
    .option("--json", "print the report as one JSON object on stdout")
    .option("--refresh", "probe again instead of using cached results")
    .option("--no-drift", "skip the schema drift check")
    .option("--codex-bin <path>", "probe exactly this codex executable (no other candidate)")
    .option("--cwd <dir>", "the working directory whose locus to check (a WSL path checks that distribution)")
    .option("--no-color", "never colour the report")
    .addHelpText("after", helpEpilogue(WHAT_HELP, EXIT_HELP, ENVIRONMENT_HELP, EXAMPLES_HELP))
    .action(async (raw: RawDoctorOptions) => {
      context.setExitCode(await runCodexDoctor(raw, context.io));
    });
}

/** The action of `rennet codex doctor`; resolves with the exit code. */
export async function runCodexDoctor(raw: RawDoctorOptions, io: ResolvedCliIo): Promise<number> {
  if (raw.codexBin === "")
    throw new UsageError("--codex-bin is empty: give the path of the codex executable", COMMAND);
  if (raw.cwd === "") throw new UsageError("--cwd is empty: give a directory", COMMAND);
  // the doctor's machinery is loaded when the doctor runs, not when any other command is parsed
  const [{ discoverCodex }, { checkSchemaDrift }, { formatDoctorReport }, { formatDriftReport }] =
    await Promise.all([
      import("../../codex/discovery/discover.js"),
      import("../../codex/drift/schema-drift.js"),
      import("../../codex/discovery/format-doctor-report.js"),
      import("../../codex/drift/format-drift-report.js"),
    ]);
  const formatDoctorOutput = (output: DoctorOutput, options: { color: boolean }): string => {
    const text = formatDoctorReport(output, options);
    if (!output.drift) return text;
    return `${text.endsWith("\n") ? text : `${text}\n`}\n${formatDriftReport(output.drift, options)}`;
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
  writeReport<DoctorOutput>(io, drift ? { ...report, drift } : report, raw, formatDoctorOutput);
  return report.available ? EXIT_CODES.completed : EXIT_CODES.codexUnavailable;
}

/** The doctor's report: discovery, plus the chosen binary's schema drift when it was checked. */
export type DoctorOutput = DiscoveryReport & { drift?: SchemaDriftReport };
