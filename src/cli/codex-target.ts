import type { CodexClientOptions } from "../codex/client/client-options.js";
import { resolveCodex, type CodexTarget } from "../codex/client/resolve-codex.js";
import type { ResolvedCodex } from "../codex/launch/codex-launch.js";
import { CodexUnavailableError } from "../codex/codex-unavailable-error.js";
import { isRennetError } from "../errors.js";
import type { ResolvedCliIo } from "./cli-io.js";
import { absolutizeCommand, summarizeUnavailable } from "./executable-target.js";

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
