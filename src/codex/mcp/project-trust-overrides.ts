import { tomlTable, type TomlInlineTable } from "./mcp-overrides-toml.js";

export { directoryChain } from "../trust/directory-chain.js";

/**
 * The `projects` override marking every directory of every given chain as trusted, as a `{ "<dir>" = {
 * trust_level = "trusted" } }` table. Pure. Used for the inventory (so that a repository's own
 * `.codex/config.toml` servers are listed, and therefore disabled, even when the repository is not yet trusted:
 * `thread/start` may trust it later) and for the isolation control's `thread/start` (worst case: every project
 * layer active; and a stated trust level stops codex from writing one into the user's config.toml).
 */
export function trustedProjectsTable(directories: Iterable<string>): TomlInlineTable {
  const unique = [...new Set(directories)];
  return tomlTable(unique.map((dir) => [dir, tomlTable([["trust_level", "trusted"]])] as const));
}

/** The same as {@link trustedProjectsTable}, as a JSON object for `thread/start`'s `config` (null prototype). */
export function trustedProjectsConfig(
  directories: Iterable<string>,
): Record<string, { trust_level: "trusted" }> {
  const projects = Object.create(null) as Record<string, { trust_level: "trusted" }>;
  for (const dir of directories) projects[dir] = { trust_level: "trusted" };
  return projects;
}
