import { createColors, type Colors } from "../../colors.js";
import { describeLaunch } from "../../discovery/executable-launch.js";
import type { ResolvedCodex } from "../launch/codex-launch.js";
import type { LaunchMode } from "../../discovery/discovery-types.js";
import type {
  CandidateReport,
  DiscoveryReport,
  LoginShellReport,
  ProbeOutcome,
} from "../../discovery/discovery-report.js";
import { CODEX_UPGRADE_COMMAND } from "../versions/supported-version.js";

/**
 * Renders a {@link DiscoveryReport} for `rennet codex doctor`: the verdict and chosen command, the locus, the
 * login shell, then every candidate best first with each probe's result, time and reason. Pure.
 */
export function formatDoctorReport(report: DiscoveryReport, options: { color: boolean }): string {
  const c = createColors(options.color);
  const lines: string[] = [];
  if (report.available && report.chosen) {
    lines.push(`${c.bold("Codex:")} ${c.green("available")}`);
    const mode = report.candidates.find((candidate) => candidate.chosen)?.launch ?? null;
    lines.push(...describeChosen(report.chosen, mode).map((line) => `  ${line}`));
  } else {
    lines.push(`${c.bold("Codex:")} ${c.red("unavailable")}`);
    lines.push(`  reason  ${report.reason ?? "no candidate passed every probe"}`);
    lines.push(
      report.code === "CODEX_UNSUPPORTED_VERSION"
        ? `  fix     upgrade Codex (${CODEX_UPGRADE_COMMAND}), or set RENNET_CODEX_BIN to a newer codex executable`
        : `  fix     install Codex (npm i -g @openai/codex, or the standalone installer), or set RENNET_CODEX_BIN to a ` +
            `working codex executable; after a fix, run \`rennet codex doctor --refresh\``,
    );
  }
  lines.push("");
  lines.push(
    `${c.bold("Locus:")} ${report.locus.type === "wsl" ? `WSL distribution "${report.locus.distro}"` : "native"} (${report.platform})`,
  );
  lines.push(`${c.bold("Login shell:")} ${describeLoginShell(report.loginShell)}`);
  lines.push(`${c.bold("Probe cache:")} ${report.cacheFile ?? "off"}`);
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

function describeChosen(chosen: ResolvedCodex, mode: LaunchMode | null): string[] {
  const how =
    mode === "npm-native"
      ? " · its native binary, started without npm's node launcher"
      : chosen.launch.type === "node-launcher"
        ? " · run through the node beside it"
        : chosen.launch.type === "windows-cmd"
          ? " · run through cmd.exe"
          : "";
  const lines = [
    `chosen  ${chosen.version ? `codex ${chosen.version}` : "codex (version unknown)"}  ${chosen.path}`,
    `        from ${chosen.source}${how}`,
    `launch  ${describeLaunch(chosen.launch, ["app-server"])}`,
  ];
  if (chosen.launch.env?.PATH !== undefined)
    lines.push(`        with PATH = login-shell PATH + inherited PATH`);
  return lines;
}

function describeLoginShell(login: LoginShellReport): string {
  switch (login.type) {
    case "ok":
      return `${login.shell} ${login.flags} → ${login.entries} PATH entries, ${formatMs(login.ms)}${login.cached ? " (cached)" : ""}`;
    case "failed":
      return `${login.shell} failed after ${formatMs(login.ms)}: ${login.reason}${login.cached ? " (cached for up to an hour; `rennet codex doctor --refresh` retries)" : ""}`;
    case "skipped":
      return `skipped (${login.reason})`;
  }
}

function describeCandidate(candidate: CandidateReport, c: Colors): string[] {
  const mark =
    candidate.outcome === "passed" ? c.green("✔") : candidate.outcome === "failed" ? c.red("✘") : c.dim("–");
  const head = `  ${mark} ${candidate.rank}. ${candidate.path}${candidate.chosen ? c.green("  ← chosen") : ""}`;
  const facts = [`${candidate.source} (${candidate.label})`];
  if (candidate.version) facts.push(`version ${candidate.version}`);
  if (candidate.launch && candidate.launch !== "direct") facts.push(`launch: ${candidate.launch}`);
  if (candidate.cached) facts.push("cached");
  const lines = [head, `       ${facts.join(" · ")}`];
  if (candidate.probes.length > 0) {
    lines.push(`       ${candidate.probes.map((probe) => describeProbe(probe, c)).join("   ")}`);
    for (const probe of candidate.probes) {
      if (probe.reason && probe.result !== "skipped") {
        const text = `${probe.probe}: ${probe.reason}`;
        lines.push(`       ${probe.result === "fail" ? c.red(text) : c.dim(text)}`);
      }
    }
  } else if (candidate.reason) {
    lines.push(`       ${c.dim(`not probed: ${candidate.reason}`)}`);
  }
  return lines;
}

function describeProbe(probe: ProbeOutcome, c: Colors): string {
  switch (probe.result) {
    case "pass":
      return `${probe.probe} ${c.green("✔")} ${formatMs(probe.ms)}`;
    case "fail":
      return `${probe.probe} ${c.red("✘")} ${formatMs(probe.ms)}`;
    case "skipped":
      return c.dim(`${probe.probe} –`);
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
