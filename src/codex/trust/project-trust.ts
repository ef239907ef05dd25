/**
 * The trust Rennet states for a turn's working directory. A project the user never trusted is untrusted, so
 * codex does not load the repository's own `.codex/` layer (MCP servers, hooks, instructions, model). The
 * decision is stated in the thread's `config` for every directory from the cwd up to the root: codex decides a
 * repository's layer by the trust of its root (the nearest ancestor with `.git`), which may lie above the cwd,
 * and a stated level also keeps codex from persisting one into the user's config.toml. Pure.
 */
import type { ProjectTrust } from "../../harness/events.js";
import { asRecord } from "../../json-record.js";
import { resolveDirectory } from "./directory-chain.js";

export type TrustLevel = ProjectTrust["level"];

/** The trust a turn's cwd gets and where it came from (the `trust` of `session.started` and the terminal). */
export type TrustDecision = ProjectTrust;

/**
 * The decision for the directories whose entries count for one cwd (in codex's order; see
 * `trustEntryDirectories`). The user's entry is the effective config's `projects` entry of the first listed
 * directory that has a known `trust_level` (keys and directories compared as resolved paths).
 * - `trustProject: false`: untrusted, source `call`;
 * - the user's entry says `untrusted`: untrusted, source `user-config` (as with `codex exec --trust`, a call
 *   cannot trust what the user distrusts);
 * - `trustProject: true`: trusted, source `call`;
 * - the user's entry says `trusted`: trusted, source `user-config`;
 * - else untrusted, source `default`.
 */
export function decideTrust(
  directories: readonly string[],
  projects: unknown,
  trustProject?: boolean,
): TrustDecision {
  if (trustProject === false) return { level: "untrusted", source: "call" };
  const entry = userEntry(directories, projects);
  if (entry?.level === "untrusted") return entry;
  if (trustProject === true) return { level: "trusted", source: "call" };
  return entry ?? { level: "untrusted", source: "default" };
}

function userEntry(directories: readonly string[], projects: unknown): TrustDecision | null {
  const normalized = new Map<string, unknown>();
  for (const [key, value] of Object.entries(asRecord(projects))) normalized.set(resolveDirectory(key), value);
  for (const directory of directories) {
    const level = asRecord(normalized.get(resolveDirectory(directory))).trust_level;
    if (level === "trusted" || level === "untrusted")
      return { level, source: "user-config", path: directory };
  }
  return null;
}

/** The thread `config` override that states the decision for each of `directories`. Pure. */
export function trustOverride(
  directories: readonly string[],
  decision: Pick<TrustDecision, "level">,
): { projects: Record<string, { trust_level: TrustLevel }> } {
  const projects = Object.create(null) as Record<string, { trust_level: TrustLevel }>;
  for (const directory of directories) projects[directory] = { trust_level: decision.level };
  return { projects };
}

/** "untrusted (default: …)", one line for a person. Pure. */
export function describeTrust(decision: TrustDecision): string {
  switch (decision.source) {
    case "call":
      return `${decision.level} (this call asked for it)`;
    case "user-config":
      return `${decision.level} (your Codex config: [projects."${decision.path ?? "?"}"] trust_level = "${decision.level}")`;
    case "default":
      return "untrusted (default: your Codex config has no trust_level for it or its project root)";
  }
}
