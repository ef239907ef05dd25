import path from "node:path";
import { tomlTable, type TomlInlineTable } from "./mcp-overrides-toml.js";

/**
 * Every directory from `cwd` up to its root, in the path syntax of `cwd` (POSIX unless it has a drive letter or
 * is a UNC path). Pure. Codex keys project trust by the directory of each `.codex/` layer between the project
 * root and the cwd, so trusting all of them makes every project layer count, wherever the root is.
 */
export function directoryChain(cwd: string): string[] {
  const flavour = /^[A-Za-z]:[\\/]|^\\\\/.test(cwd) ? path.win32 : path.posix;
  const chain: string[] = [];
  let current = flavour.resolve(cwd);
  for (;;) {
    chain.push(current);
    const parent = flavour.dirname(current);
    if (parent === current) return chain;
    current = parent;
  }
}

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
