import type { DiscoveryReport } from "../../discovery/discovery-report.js";
import { discoverExecutable, type DiscoverExecutableOptions } from "../../discovery/discover-executable.js";
import { CLAUDE_SPEC } from "./claude-spec.js";

/** The result of {@link discoverClaude}. JSON-serializable (for `rennet claude doctor --json`). */
export type ClaudeDiscoveryReport = DiscoveryReport<"CLAUDE_UNSUPPORTED_VERSION", never>;

export interface DiscoverClaudeOptions extends Omit<DiscoverExecutableOptions, "explicitPath" | "launcher"> {
  /**
   * Probe exactly this file and nothing else (the CLI's `--claude-bin`): no other candidate is considered, and
   * the report says why it fails. Launch modes (node launcher, npm's placeholder, WSL) apply as for any candidate.
   */
  claudeBin?: string;
}

/**
 * Finds the user's Claude Code the way a GUI app must, without trusting the inherited PATH: `RENNET_CLAUDE_BIN`
 * first, then the login-shell PATH, the process PATH, known install locations (the native installer's
 * `~/.local/bin`, `~/.claude/local`, npm's global bins, Homebrew, the version managers, WinGet) and the Claude
 * desktop app's copy, each candidate probed (executable, `--version`) in parallel with deadlines. The chosen
 * command is the best-ranked candidate that passes both with a supported version. Never throws except with
 * `signal.reason` on abort.
 */
export function discoverClaude(options: DiscoverClaudeOptions = {}): Promise<ClaudeDiscoveryReport> {
  const { claudeBin, ...rest } = options;
  return discoverExecutable(
    CLAUDE_SPEC,
    claudeBin === undefined ? rest : { ...rest, explicitPath: claudeBin },
  );
}
