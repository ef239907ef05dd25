import { isAbsolute, resolve } from "node:path";
import type { CodexClientOptions } from "../codex/client/client-options.js";
import { resolveCodex, type CodexTarget } from "../codex/client/resolve-codex.js";
import type { ResolvedCodex } from "../codex/launch/codex-launch.js";
import type { DiscoveryReport } from "../discovery/discovery-report.js";
import { CodexUnavailableError } from "../codex/codex-unavailable-error.js";
import { isRennetError } from "../errors.js";
import type { ResolvedCliIo } from "./cli-io.js";

/**
 * A path with a directory part is made absolute against `cwd`: the child is started in `--cwd`, so a relative
 * path would otherwise be looked up from there. A bare name (`codex`) is left for the PATH lookup. Pure.
 */
export function absolutizeCommand(command: string, cwd: string): string {
  if (isAbsolute(command)) return command;
  if (!command.includes("/") && !command.includes("\\")) return command;
  return resolve(cwd, command);
}

/** The few lines of a failed discovery that fit in an error message (its doctor command shows them all). Pure. */
export function summarizeUnavailable(report: DiscoveryReport): string {
  const doctor = report.program.doctorCommand;
  const lines = [report.reason ?? "no candidate passed every probe"];
  const failed = report.candidates.filter((c) => c.outcome === "failed");
  for (const candidate of failed.slice(0, 5)) {
    lines.push(`  ${candidate.path}: ${candidate.reason ?? "failed"}`);
  }
  if (failed.length > 5) lines.push(`  … and ${failed.length - 5} more (see \`${doctor}\`)`);
  if (report.candidates.length === 0)
    lines.push(`  no ${report.program.executable} executable was found in any candidate directory`);
  return lines.join("\n");
}

/**
 * The client options of a command: the user's intent (`--codex-bin`, taken exactly as given) and the CLI's
 * test seams (launcher, interrupt grace). Which Codex runs is decided by {@link resolveCliCodex}. Pure.
 */
export function cliCodexTarget(
  io: ResolvedCliIo,
  codexBin: string | undefined,
): CodexTarget & Omit<CodexClientOptions, "codex"> {
  return {
    ...(codexBin !== undefined ? { codex: absolutizeCommand(codexBin, io.cwd) } : {}),
    env: io.env,
    ...(io.launcher ? { launcher: io.launcher } : {}),
    ...(io.interruptGraceMs !== undefined ? { interruptGraceMs: io.interruptGraceMs } : {}),
  };
}

/**
 * The Codex `target` runs in `cwd` (the library's own resolution, see `resolveCodex`); an unavailable one
 * becomes a {@link CodexUnavailableError} whose message lists the failed candidates and the fixes (the CLI
 * exits 3). Rejects with `signal.reason` on abort.
 */
export async function resolveCliCodex(
  target: CodexTarget,
  cwd: string,
  signal: AbortSignal,
): Promise<ResolvedCodex> {
  try {
    return await resolveCodex(target, { cwd, signal });
  } catch (error) {
    const unavailable =
      isRennetError(error, "CODEX_UNAVAILABLE") || isRennetError(error, "CODEX_UNSUPPORTED_VERSION");
    const report = unavailable ? (error as CodexUnavailableError).report : null;
    if (report === null) throw error;
    throw new CodexUnavailableError(
      report,
      `Codex is unavailable: ${summarizeUnavailable(report)}\nRun \`rennet codex doctor\` for the full report, install Codex (npm i -g @openai/codex), or pass --codex-bin PATH.`,
    );
  }
}
