/**
 * Which Claude Code a session starts: the client's explicit path (checked without running it), an injected
 * launcher's `RENNET_CLAUDE_BIN` or `claude`, else discovery's choice. Loaded with a client's first session.
 */
import { explicitExecutable, type ResolvedExecutable } from "../../discovery/executable-launch.js";
import { ClaudeUnavailableError } from "../claude-unavailable-error.js";
import { discoverClaude } from "../discovery/discover-claude.js";
import { usableExplicitClaude } from "../discovery/explicit-claude.js";

export interface ResolveClaudeInput {
  /** The client's `claude` option. */
  explicit: string | undefined;
  /** A launcher was injected: it decides what runs, nothing is looked up. */
  injected: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  signal: AbortSignal;
}

/**
 * The executable to launch. Rejects with `ClaudeUnavailableError` (`CLAUDE_UNAVAILABLE`, or
 * `CLAUDE_UNSUPPORTED_VERSION` for a release too old), `ClaudeUnsupportedVersionError`, or `signal.reason`.
 */
export async function resolveClaude(input: ResolveClaudeInput): Promise<ResolvedExecutable> {
  if (input.explicit !== undefined) return usableExplicitClaude(input.explicit);
  if (input.injected) {
    const fromEnv = input.env.RENNET_CLAUDE_BIN;
    return explicitExecutable(fromEnv !== undefined && fromEnv !== "" ? fromEnv : "claude");
  }
  const report = await discoverClaude({ env: input.env, cwd: input.cwd, signal: input.signal });
  input.signal.throwIfAborted();
  if (!report.available || !report.chosen) throw new ClaudeUnavailableError(report);
  return report.chosen;
}
