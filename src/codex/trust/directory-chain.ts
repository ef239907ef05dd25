import path from "node:path";

/** The path module for `p`'s syntax: Windows for a drive letter or a UNC path, POSIX otherwise. */
function flavourOf(p: string): path.PlatformPath {
  return /^[A-Za-z]:[\\/]|^\\\\/.test(p) ? path.win32 : path.posix;
}

/**
 * `p` as an absolute, normalized directory path in its own syntax (no trailing separator but at a root). Pure
 * for an absolute `p`; a relative one resolves against the process's working directory.
 */
export function resolveDirectory(p: string): string {
  return flavourOf(p).resolve(p);
}

/**
 * Every directory from `cwd` up to its root, closest first, in the path syntax of `cwd` (POSIX unless it has a
 * drive letter or is a UNC path). Pure. Codex keys project trust by directory, so both the trust decision for
 * a turn and the trust overrides of the MCP inventory walk this chain.
 */
export function directoryChain(cwd: string): string[] {
  const flavour = flavourOf(cwd);
  const chain: string[] = [];
  let current = flavour.resolve(cwd);
  for (;;) {
    chain.push(current);
    const parent = flavour.dirname(current);
    if (parent === current) return chain;
    current = parent;
  }
}
