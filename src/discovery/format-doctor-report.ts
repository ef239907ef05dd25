import { createColors, type Colors } from "../colors.js";
import { printableText } from "../printable-text.js";
import { describeLaunch, type ResolvedExecutable } from "./executable-launch.js";
import type { LaunchMode } from "./discovery-types.js";
import type {
  CandidateReport,
  DiscoveryReport,
  LoginShellReport,
  ProbeOutcome,
  ProgramFacts,
  SkippedDirReport,
} from "./discovery-report.js";

/**
 * Renders a {@link DiscoveryReport} for a doctor command: the verdict and chosen command, the locus, the login
 * shell, then every candidate best first with each probe's result, time and reason. The program's names and
 * fixes come from the report itself (`report.program`). Every text that came from a probed executable, the cache,
 * the file system or the environment (versions, paths, labels, reasons, the shell) is escaped with
 * `printableText`, so the report is safe to print on a terminal. No colour unless `options.color`. Pure.
 */
export function formatDoctorReport(
  report: DiscoveryReport,
  options: { color: boolean } = { color: false },
): string {
  const c = createColors(options.color);
  const { program } = report;
  const lines: string[] = [];
  if (report.available && report.chosen) {
    lines.push(`${c.bold(`${program.name}:`)} ${c.green("available")}`);
    const mode = report.candidates.find((candidate) => candidate.chosen)?.launch ?? null;
    lines.push(...describeChosen(report.chosen, mode, program).map((line) => `  ${line}`));
  } else {
    lines.push(`${c.bold(`${program.name}:`)} ${c.red("unavailable")}`);
    lines.push(`  reason  ${safe(report.reason ?? "no candidate passed every probe")}`);
    lines.push(`  fix     ${fixLine(report, program)}`);
  }
  lines.push("");
  lines.push(
    `${c.bold("Locus:")} ${report.locus.type === "wsl" ? `WSL distribution "${safe(report.locus.distro)}"` : "native"} (${report.platform})`,
  );
  lines.push(`${c.bold("Login shell:")} ${describeLoginShell(report.loginShell, program)}`);
  lines.push(...describeSkippedDirs(report.skippedDirs ?? [], c));
  lines.push(`${c.bold("Probe cache:")} ${report.cacheFile === null ? "off" : safe(report.cacheFile)}`);
  lines.push("");
  if (report.candidates.length === 0) {
    lines.push(c.dim("No candidates found."));
  } else {
    lines.push(c.bold("Candidates, best first:"));
    for (const candidate of report.candidates) lines.push(...describeCandidate(candidate, c));
  }
  lines.push("");
  lines.push(c.dim(`Discovery took ${formatMs(report.elapsedMs)}.`));
  return `${lines.join("\n")}\n`;
}

/**
 * What to do when nothing is available: update a too-old one, else install one or point the variable at it. For
 * an explicit path (the flag, which the variable does not override) the fix names the flag instead.
 */
function fixLine(report: DiscoveryReport, program: ProgramFacts): string {
  const exe = program.executable;
  const flag = explicitFlagOf(report);
  const refresh = `after a fix, run \`${program.doctorCommand} --refresh\``;
  if (report.code !== undefined) {
    const newer = flag === null ? `set ${program.overrideVariable} to` : `give ${flag}`;
    return `upgrade ${program.name} (${program.upgrade}), or ${newer} a newer ${exe} executable`;
  }
  if (flag !== null)
    return `give ${flag} a working ${exe} executable, or leave it out to let discovery search; ${refresh}`;
  return `install ${program.name} (${program.install}), or set ${program.overrideVariable} to a working ${exe} executable; ${refresh}`;
}

/** The flag of an explicit path when the report probed only that (its one candidate carries the flag as label). */
function explicitFlagOf(report: DiscoveryReport): string | null {
  const [only, ...rest] = report.candidates;
  if (only === undefined || rest.length > 0) return null;
  const explicit = only.source === "env-override" && only.label !== report.program.overrideVariable;
  return explicit ? safe(only.label) : null;
}

function describeChosen(
  chosen: ResolvedExecutable,
  mode: LaunchMode | null,
  program: ProgramFacts,
): string[] {
  const how =
    mode === "npm-native"
      ? " · its native binary, started without npm's launcher"
      : chosen.launch.type === "node-launcher"
        ? " · run through the node beside it"
        : chosen.launch.type === "windows-cmd"
          ? " · run through cmd.exe"
          : "";
  const exe = program.executable;
  const lines = [
    `chosen  ${chosen.version ? `${exe} ${safe(chosen.version)}` : `${exe} (version unknown)`}  ${safe(chosen.path)}`,
    `        from ${safe(chosen.source)}${how}`,
    `launch  ${safe(describeLaunch(chosen.launch, program.launchArgs))}`,
  ];
  if (chosen.launch.env?.PATH !== undefined)
    lines.push(`        with PATH = login-shell PATH + inherited PATH`);
  return lines;
}

function describeLoginShell(login: LoginShellReport, program: ProgramFacts): string {
  switch (login.type) {
    case "ok":
      return `${safe(login.shell)} ${safe(login.flags)} → ${login.entries} PATH entries, ${formatMs(login.ms)}${login.cached ? " (cached)" : ""}`;
    case "failed":
      return `${safe(login.shell)} failed after ${formatMs(login.ms)}: ${safe(login.reason)}${login.cached ? ` (cached for up to an hour; \`${program.doctorCommand} --refresh\` retries)` : ""}`;
    case "skipped":
      return `skipped (${safe(login.reason)})`;
  }
}

/** The directories never searched (each shown as a JSON string, so an empty or odd entry is visible). */
function describeSkippedDirs(skipped: readonly SkippedDirReport[], c: Colors): string[] {
  if (skipped.length === 0) return [];
  const count = skipped.length === 1 ? "1 directory" : `${skipped.length} directories`;
  return [
    `${c.bold("Not searched:")} ${count} (only absolute paths are searched; the probes and the session start in the repository)`,
    ...skipped.map(
      (dir) => `  ${c.yellow(safe(JSON.stringify(dir.dir)))}  ${safe(dir.label)}: ${safe(dir.reason)}`,
    ),
  ];
}

function describeCandidate(candidate: CandidateReport, c: Colors): string[] {
  const mark =
    candidate.outcome === "passed" ? c.green("✔") : candidate.outcome === "failed" ? c.red("✘") : c.dim("–");
  const head = `  ${mark} ${candidate.rank}. ${safe(candidate.path)}${candidate.chosen ? c.green("  ← chosen") : ""}`;
  const facts = [`${safe(candidate.source)} (${safe(candidate.label)})`];
  if (candidate.version) facts.push(`version ${safe(candidate.version)}`);
  if (candidate.launch && candidate.launch !== "direct") facts.push(`launch: ${safe(candidate.launch)}`);
  if (candidate.cached) facts.push("cached");
  const lines = [head, `       ${facts.join(" · ")}`];
  if (candidate.probes.length > 0) {
    lines.push(`       ${candidate.probes.map((probe) => describeProbe(probe, c)).join("   ")}`);
    for (const probe of candidate.probes) {
      if (probe.reason && probe.result !== "skipped") {
        const text = `${safe(probe.probe)}: ${safe(probe.reason)}`;
        lines.push(`       ${probe.result === "fail" ? c.red(text) : c.dim(text)}`);
      }
    }
  } else if (candidate.reason) {
    lines.push(`       ${c.dim(`not probed: ${safe(candidate.reason)}`)}`);
  }
  return lines;
}

function describeProbe(probe: ProbeOutcome, c: Colors): string {
  switch (probe.result) {
    case "pass":
      return `${safe(probe.probe)} ${c.green("✔")} ${formatMs(probe.ms)}`;
    case "fail":
      return `${safe(probe.probe)} ${c.red("✘")} ${formatMs(probe.ms)}`;
    case "skipped":
      return c.dim(`${safe(probe.probe)} –`);
  }
}

/**
 * An outside text made printable on one line. Not cut short: a path must be shown whole, and the reasons are
 * already bounded where they are made.
 */
function safe(text: string): string {
  return printableText(text, Number.POSITIVE_INFINITY);
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
