/**
 * The trust decision Rennet states for a turn's working directory. `thread/start` with full access in a git
 * repository would otherwise persist `trust_level = "trusted"` into the user's config.toml; stating the level in
 * the thread's `config` keeps codex from writing anything. Pure.
 */
import { asRecord } from "../json-record.js";
import { directoryChain, resolveDirectory } from "./directory-chain.js";

export type TrustLevel = "trusted" | "untrusted";

export interface TrustDecision {
  level: TrustLevel;
  /** The configured project path the decision came from, or null when codex's default (trusted) applies. */
  from: string | null;
}

/**
 * The user's decision for `cwd` from the effective config's `projects` table (the closest configured
 * ancestor wins, as codex resolves a project by its repository root), else trusted. Keys and `cwd` are
 * compared as resolved paths (see {@link resolveDirectory}).
 */
export function decideTrust(cwd: string, projects: unknown): TrustDecision {
  const normalized = new Map<string, unknown>();
  for (const [key, value] of Object.entries(asRecord(projects))) normalized.set(resolveDirectory(key), value);
  for (const candidate of directoryChain(cwd)) {
    const level = asRecord(normalized.get(candidate)).trust_level;
    if (level === "trusted" || level === "untrusted") return { level, from: candidate };
  }
  return { level: "trusted", from: null };
}

/** The thread `config` override that states the decision for exactly `cwd`. */
export function trustOverride(cwd: string, decision: TrustDecision): Record<string, unknown> {
  return { projects: { [cwd]: { trust_level: decision.level } } };
}
