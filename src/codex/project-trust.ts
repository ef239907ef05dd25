/**
 * The trust decision Rennet states for a turn's working directory. `thread/start` with full access in a git
 * repository would otherwise persist `trust_level = "trusted"` into the user's config.toml; stating the level in
 * the thread's `config` keeps codex from writing anything. Pure.
 */

export type TrustLevel = "trusted" | "untrusted";

export interface TrustDecision {
  level: TrustLevel;
  /** The configured project path the decision came from, or null when codex's default (trusted) applies. */
  from: string | null;
}

function trimTrailingSeparators(p: string): string {
  const trimmed = p.replace(/[\\/]+$/, "");
  return trimmed === "" ? p.slice(0, 1) : trimmed;
}

/** `cwd` itself, then each ancestor, closest first. Works for POSIX and Windows paths. */
export function selfAndAncestors(cwd: string): string[] {
  const out: string[] = [];
  let current = trimTrailingSeparators(cwd);
  for (;;) {
    out.push(current);
    const cut = Math.max(current.lastIndexOf("/"), current.lastIndexOf("\\"));
    if (cut <= 0) {
      if (cut === 0 && current !== "/") out.push("/");
      break;
    }
    const parent = current.slice(0, cut);
    if (/^[A-Za-z]:$/.test(parent)) {
      out.push(`${parent}\\`);
      break;
    }
    current = parent;
  }
  return out;
}

/**
 * The user's decision for `cwd` from the effective config's `projects` table (the closest configured
 * ancestor wins, as codex resolves a project by its repository root), else trusted.
 */
export function decideTrust(cwd: string, projects: unknown): TrustDecision {
  if (typeof projects === "object" && projects !== null) {
    const table = projects as Record<string, unknown>;
    const normalized = new Map<string, unknown>();
    for (const [key, value] of Object.entries(table)) normalized.set(trimTrailingSeparators(key), value);
    for (const candidate of selfAndAncestors(cwd)) {
      const entry = normalized.get(candidate);
      if (typeof entry === "object" && entry !== null) {
        const level = (entry as Record<string, unknown>).trust_level;
        if (level === "trusted" || level === "untrusted") return { level, from: candidate };
      }
    }
  }
  return { level: "trusted", from: null };
}

/** The thread `config` override that states the decision for exactly `cwd`. */
export function trustOverride(cwd: string, decision: TrustDecision): Record<string, unknown> {
  return { projects: { [cwd]: { trust_level: decision.level } } };
}
