import type {
  ClaudeCodeCallOptions,
  ClaudeCodeClientOptions,
  ClaudeEffort,
} from "../claude/client/claude-call-options.js";
import { ClaudeUnavailableError, CLAUDE_INSTALL_HINT } from "../claude/claude-unavailable-error.js";
import { loadClaudeDiscovery } from "../claude/client/claude-lazy-entries.js";
import { usableExplicitClaude } from "../claude/discovery/explicit-claude.js";
import type { ResolvedExecutable } from "../discovery/executable-launch.js";
import type { HarnessSession } from "../harness/session.js";
import type { ResolvedCliIo } from "./cli-io.js";
import { absolutizeCommand, summarizeUnavailable } from "./executable-target.js";
import type { CliTurnCall, TurnOpener } from "./run-turn-command.js";
import type { RawTurnOptions, TurnOptions } from "./turn-options.js";

/** The flags of a Claude Code turn command as the command-line parser reads them. */
export interface RawClaudeTurnOptions extends RawTurnOptions {
  effort?: ClaudeEffort;
  maxBudgetUsd?: number;
}

/** Creates a Claude Code client with `options` and returns how to start a session on it. */
export type ClaudeClientStarter = (
  options: ClaudeCodeClientOptions,
) => (call: ClaudeCodeCallOptions) => HarnessSession;

/**
 * The opener of a Claude Code turn command: the claude of `--claude-bin` (checked, not run) or discovery's choice
 * (exit 3 when none works), a client made by `makeClient` on it, and each call with the Claude-only flags added.
 */
export function openClaudeTurn(
  io: ResolvedCliIo,
  options: TurnOptions,
  raw: RawClaudeTurnOptions,
  makeClient: ClaudeClientStarter,
): TurnOpener {
  return async (signal) => {
    const claude = await resolveCliClaude(io, options.bin, options.cwd, signal);
    const start = makeClient({
      ...(claude !== undefined ? { claude } : {}),
      env: io.env,
      ...(io.launcher ? { launcher: io.launcher } : {}),
      ...(io.interruptGraceMs !== undefined ? { interruptGraceMs: io.interruptGraceMs } : {}),
    });
    return (call) => start(claudeCall(call, raw));
  };
}

/**
 * The claude a command runs: `--claude-bin` as given (with an injected launcher not checked on this file system),
 * else (with an injected launcher) the library's own choice, else discovery's. Rejects with
 * {@link ClaudeUnavailableError} (exit 3), whose message lists the failed candidates, or with `signal.reason`.
 */
export async function resolveCliClaude(
  io: ResolvedCliIo,
  bin: string | undefined,
  cwd: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  const given = bin === undefined ? undefined : absolutizeCommand(bin, io.cwd);
  if (io.launcher) return given;
  if (given !== undefined)
    return launchPath(await usableExplicitClaude(given, process.platform, process.arch, io.env));
  const { discoverClaude } = await loadClaudeDiscovery();
  const report = await discoverClaude({
    env: io.env,
    cwd,
    ...(io.env.HOME ? { homedir: io.env.HOME } : {}),
    signal,
  });
  signal.throwIfAborted();
  if (report.available && report.chosen) return launchPath(report.chosen);
  throw new ClaudeUnavailableError(
    report,
    report.code === "CLAUDE_UNSUPPORTED_VERSION" && report.reason
      ? report.reason
      : `Claude Code is unavailable: ${summarizeUnavailable(report)}\nRun \`rennet claude doctor\` for the full ` +
          `report, install Claude Code (${CLAUDE_INSTALL_HINT}), or pass --claude-bin PATH.`,
  );
}

/** The file the client starts for a resolved claude: npm's placeholder is replaced by its native binary. Pure. */
function launchPath(resolved: ResolvedExecutable): string {
  const launch = resolved.launch;
  return launch.type === "native" ? launch.command : resolved.path;
}

/** The library call of a command line's turn. Pure. */
function claudeCall(call: CliTurnCall, raw: RawClaudeTurnOptions): ClaudeCodeCallOptions {
  const { turnMs, mcp, ephemeral, ...rest } = call;
  return {
    ...rest,
    timeouts: { turnMs },
    // no MCP flag: the library's default, no server at all
    ...(mcp !== "inherit" ? { mcp } : {}),
    ...(ephemeral ? {} : { keepThread: true }),
    ...(raw.effort !== undefined ? { effort: raw.effort } : {}),
    ...(raw.maxBudgetUsd !== undefined ? { maxBudgetUsd: raw.maxBudgetUsd } : {}),
  };
}
