import { realpathSync } from "node:fs";
import { directoryChain } from "./directory-chain.js";

/**
 * Every directory whose trust entry can decide a turn in `cwd`, closest first: the chain from the
 * symlink-resolved cwd up to the root (codex keys trust by the real path), then the chain of `cwd` as written,
 * without duplicates. A cwd that is not on this file system (e.g. inside WSL) gives its chain as written. The one
 * `realpath` is synchronous: the start sequence then depends on no file-system callback between codex's answers.
 */
export function trustDirectories(cwd: string): string[] {
  const chain: string[] = [];
  try {
    chain.push(...directoryChain(realpathSync(cwd)));
  } catch {
    // not resolvable here: the path as written is all there is
  }
  chain.push(...directoryChain(cwd));
  return [...new Set(chain)];
}
