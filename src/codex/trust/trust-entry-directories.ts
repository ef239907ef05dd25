import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { readBoundedFile } from "../../read-bounded-file.js";
import { directoryChain, resolveDirectory } from "./directory-chain.js";

/** The most bytes read of a `.git` file or a worktree's `gitdir` file (git writes one line). */
const MAX_GIT_POINTER_BYTES = 4096;

/**
 * The directories whose own `[projects]` entry decides the trust of a turn in `cwd`, in the order codex consults
 * them (measured on 0.120–0.171 with `codex mcp list`): the cwd itself, then its project root, the nearest
 * ancestor holding a `.git` entry (a directory or a file: a submodule or linked worktree is its own root); for a
 * linked worktree also the main repository's root. An entry for any other ancestor (a trusted home directory, a
 * superproject, a directory holding many clones) does not make codex trust the cwd, so it must not make Rennet
 * trust it either. Codex keys trust by the symlink-resolved path (an entry for a symlinked path is not used), so
 * the directories are those of the resolved cwd; a cwd that is not on this file system (e.g. inside WSL) gives
 * its own path as written. Reads at most two small regular files of the repository (`readBoundedFile`: never
 * following a symlink, never waiting on a FIFO). Never rejects.
 */
export async function trustEntryDirectories(cwd: string): Promise<string[]> {
  const real = await realpath(cwd).catch(() => null);
  if (real === null) return [resolveDirectory(cwd)];
  const start = resolveDirectory(real);
  const entries = [start];
  const root = await projectRoot(start);
  if (root !== null) {
    entries.push(root);
    const main = await worktreeMainRoot(root);
    if (main !== null) entries.push(main);
  }
  return [...new Set(entries)];
}

/** The nearest directory from `cwd` up that holds a `.git` entry of any kind, or null. */
async function projectRoot(cwd: string): Promise<string | null> {
  for (const directory of directoryChain(cwd)) {
    const found = await lstat(path.join(directory, ".git")).then(
      () => true,
      () => false,
    );
    if (found) return directory;
  }
  return null;
}

/**
 * For a linked worktree (`<root>/.git` is a file `gitdir: <main>/.git/worktrees/<name>` whose own `gitdir` file
 * points back at this `.git` file), `<main>`; otherwise null. The back pointer keeps a repository's `.git` file
 * from claiming a trusted repository as its main one.
 */
async function worktreeMainRoot(root: string): Promise<string | null> {
  const dotGit = path.join(root, ".git");
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec((await readSmallFile(dotGit)) ?? "")?.[1];
  if (pointer === undefined) return null;
  const gitDir = path.resolve(root, pointer);
  const worktrees = path.dirname(gitDir);
  const commonDir = path.dirname(worktrees);
  if (path.basename(worktrees) !== "worktrees" || path.basename(commonDir) !== ".git") return null;
  const back = (await readSmallFile(path.join(gitDir, "gitdir")))?.trim();
  if (back === undefined || back === "") return null;
  const same = (await realpathOrSelf(path.resolve(gitDir, back))) === (await realpathOrSelf(dotGit));
  return same ? path.dirname(commonDir) : null;
}

function realpathOrSelf(file: string): Promise<string> {
  return realpath(file).catch(() => file);
}

/** A regular file's text, at most {@link MAX_GIT_POINTER_BYTES}; null for anything else (symlink, FIFO, larger). */
async function readSmallFile(file: string): Promise<string | null> {
  const read = await readBoundedFile(file, MAX_GIT_POINTER_BYTES);
  return read.type === "read" ? read.bytes.toString("utf8") : null;
}
