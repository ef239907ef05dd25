/** What a harness command names as its executable, before any harness module loads. Pure. */
import { isAbsolute, resolve } from "node:path";
import type { DiscoveryReport } from "../discovery/discovery-report.js";
import { printableText } from "../printable-text.js";

/**
 * A path with a directory part is made absolute against `cwd`: the child is started in `--cwd`, so a relative
 * path would otherwise be looked up from there. A bare name (`codex`) is kept: resolving the executable looks it
 * up in the absolute PATH directories. Pure.
 */
export function absolutizeCommand(command: string, cwd: string): string {
  if (isAbsolute(command)) return command;
  if (!command.includes("/") && !command.includes("\\")) return command;
  return resolve(cwd, command);
}

/**
 * The few lines of a failed discovery that fit in an error message (its doctor command shows them all), each
 * text from the report escaped (`printableText`): paths and reasons come from the file system and the probed
 * executables. Pure.
 */
export function summarizeUnavailable(report: DiscoveryReport): string {
  const doctor = report.program.doctorCommand;
  const safe = (text: string): string => printableText(text, Number.POSITIVE_INFINITY);
  const lines = [safe(report.reason ?? "no candidate passed every probe")];
  const failed = report.candidates.filter((c) => c.outcome === "failed");
  for (const candidate of failed.slice(0, 5)) {
    lines.push(`  ${safe(candidate.path)}: ${safe(candidate.reason ?? "failed")}`);
  }
  if (failed.length > 5) lines.push(`  … and ${failed.length - 5} more (see \`${doctor}\`)`);
  if (report.candidates.length === 0)
    lines.push(`  no ${report.program.executable} executable was found in any candidate directory`);
  return lines.join("\n");
}
