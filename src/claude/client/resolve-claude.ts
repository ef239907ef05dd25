/**
 * Which Claude Code a session starts: the client's explicit path (checked without running it), an injected
 * launcher's `RENNET_CLAUDE_BIN` or `claude`, else discovery's choice (loaded only then). Loaded with a client's
 * first session.
 */
import { explicitExecutable, type ResolvedExecutable } from "../../discovery/executable-launch.js";
import { ClaudeUnavailableError } from "../claude-unavailable-error.js";
import { usableExplicitClaude } from "../discovery/explicit-claude.js";
import type * as Discovery from "../discovery/discover-claude.js";

export interface ResolveClaudeInput {
  /** The client's `claude` option. */
  explicit: string | undefined;
  /** A launcher was injected: it decides what runs, nothing is looked up. */
  injected: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  signal: AbortSignal;
  /** Loads discovery (the client's deferred load): called only when no explicit path or launcher decides. */
  loadDiscovery(): Promise<Pick<typeof Discovery, "discoverClaude">>;
}

/**
 * The executable to launch. Rejects with `ClaudeUnavailableError` (`CLAUDE_UNAVAILABLE`, or
 * `CLAUDE_UNSUPPORTED_VERSION` for a release too old), `ClaudeUnsupportedVersionError`, or `signal.reason`.
 */
export async function resolveClaude(input: ResolveClaudeInput): Promise<ResolvedExecutable> {
  if (input.explicit !== undefined)
    return usableExplicitClaude(input.explicit, process.platform, process.arch, input.env);
  if (input.injected) {
    const fromEnv = input.env.RENNET_CLAUDE_BIN;
    return explicitExecutable(fromEnv !== undefined && fromEnv !== "" ? fromEnv : "claude");
  }
  const { discoverClaude } = await input.loadDiscovery();
  const report = await discoverClaude({ env: input.env, cwd: input.cwd, signal: input.signal });
  input.signal.throwIfAborted();
  if (!report.available || !report.chosen) throw new ClaudeUnavailableError(report);
  return report.chosen;
}
