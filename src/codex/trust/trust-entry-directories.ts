import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from "node:fs";
import path from "node:path";
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
 * its own path as written. Synchronous, like `trustDirectories`; reads at most two small regular files of the
 * repository, never following a symlink and never waiting on a FIFO.
 */
export function trustEntryDirectories(cwd: string): string[] {
  let start: string;
  try {
    start = resolveDirectory(realpathSync(cwd));
  } catch {
    return [resolveDirectory(cwd)];
  }
  const entries = [start];
  const root = projectRoot(start);
  if (root !== null) {
    entries.push(root);
    const main = worktreeMainRoot(root);
    if (main !== null) entries.push(main);
  }
  return [...new Set(entries)];
}

/** The nearest directory from `cwd` up that holds a `.git` entry of any kind, or null. */
function projectRoot(cwd: string): string | null {
  for (const directory of directoryChain(cwd)) {
    const info = lstatOrNull(path.join(directory, ".git"));
    if (info !== null) return directory;
  }
  return null;
}

/**
 * For a linked worktree (`<root>/.git` is a file `gitdir: <main>/.git/worktrees/<name>` whose own `gitdir` file
 * points back at this `.git` file), `<main>`; otherwise null. The back pointer keeps a repository's `.git` file
 * from claiming a trusted repository as its main one.
 */
function worktreeMainRoot(root: string): string | null {
  const dotGit = path.join(root, ".git");
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readSmallFile(dotGit) ?? "")?.[1];
  if (pointer === undefined) return null;
  const gitDir = path.resolve(root, pointer);
  const worktrees = path.dirname(gitDir);
  const commonDir = path.dirname(worktrees);
  if (path.basename(worktrees) !== "worktrees" || path.basename(commonDir) !== ".git") return null;
  const back = readSmallFile(path.join(gitDir, "gitdir"))?.trim();
  if (back === undefined || back === "") return null;
  const same = realpathOrSelf(path.resolve(gitDir, back)) === realpathOrSelf(dotGit);
  return same ? path.dirname(commonDir) : null;
}

function lstatOrNull(file: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

function realpathOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** A regular file's text, at most {@link MAX_GIT_POINTER_BYTES}; null for anything else (symlink, FIFO, larger). */
function readSmallFile(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_GIT_POINTER_BYTES) return null;
    const buffer = Buffer.alloc(MAX_GIT_POINTER_BYTES);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, length).toString("utf8");
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
