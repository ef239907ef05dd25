import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { trustEntryDirectories } from "../../src/codex/trust/trust-entry-directories.js";

let root = "";
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-trust-entries-")));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function dir(...parts: string[]): Promise<string> {
  const directory = path.join(root, ...parts);
  await mkdir(directory, { recursive: true });
  return directory;
}

describe("trustEntryDirectories: the entries codex consults for a cwd", () => {
  it("outside any repository: the cwd alone, never the directories above it", async () => {
    const cwd = await dir("clones", "fork");
    expect(await trustEntryDirectories(cwd)).toEqual([cwd]);
  });

  it("in a repository: the cwd, then its root (the nearest directory with .git), not what lies above", async () => {
    const repo = await dir("home", "repo");
    await mkdir(path.join(repo, ".git"));
    const cwd = await dir("home", "repo", "pkg", "src");
    expect(await trustEntryDirectories(cwd)).toEqual([cwd, repo]);
    expect(await trustEntryDirectories(repo)).toEqual([repo]);
  });

  it("a submodule or nested clone is its own root: the superproject does not count", async () => {
    const superproject = await dir("super");
    await mkdir(path.join(superproject, ".git"));
    const submodule = await dir("super", "vendor", "lib");
    await writeFile(path.join(submodule, ".git"), "gitdir: ../../.git/modules/vendor/lib\n");
    expect(await trustEntryDirectories(path.join(submodule))).toEqual([submodule]);
  });

  it("a symlinked cwd gives the resolved directories only: codex keys trust by the real path", async () => {
    const repo = await dir("real", "repo");
    await mkdir(path.join(repo, ".git"));
    await dir("real", "repo", "sub");
    await symlink(repo, path.join(root, "link"));
    expect(await trustEntryDirectories(path.join(root, "link", "sub"))).toEqual([
      path.join(repo, "sub"),
      repo,
    ]);
  });

  it("a linked worktree also counts its main repository (git's own layout)", async () => {
    const main = await dir("main");
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: main,
        stdio: "pipe",
      });
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "x");
    const worktree = path.join(root, "wt");
    git("worktree", "add", "-q", worktree);
    const cwd = await dir("wt", "deep");
    expect(await trustEntryDirectories(cwd)).toEqual([cwd, worktree, main]);
  });

  it("a .git file naming another repository's worktree without its back pointer claims nothing", async () => {
    const main = await dir("trusted");
    await dir("trusted", ".git", "worktrees", "w");
    await writeFile(
      path.join(main, ".git", "worktrees", "w", "gitdir"),
      `${path.join(root, "elsewhere", ".git")}\n`,
    );
    const hostile = await dir("hostile");
    await writeFile(path.join(hostile, ".git"), `gitdir: ${path.join(main, ".git", "worktrees", "w")}\n`);
    expect(await trustEntryDirectories(hostile)).toEqual([hostile]);
  });

  it("a .git FIFO, symlink loop or huge file is a root and nothing more, and is never waited on", async () => {
    const repo = await dir("fifo-repo");
    execFileSync("mkfifo", [path.join(repo, ".git")]);
    expect(await trustEntryDirectories(repo)).toEqual([repo]);
    const loop = await dir("loop-repo");
    await symlink(".git", path.join(loop, ".git"));
    const cwd = await dir("loop-repo", "sub");
    expect(await trustEntryDirectories(cwd)).toEqual([cwd, loop]);
    const huge = await dir("huge-repo");
    await writeFile(path.join(huge, ".git"), `gitdir: ${"x/".repeat(1_000_000)}worktrees/w\n`);
    expect(await trustEntryDirectories(huge)).toEqual([huge]);
  });

  it("a cwd that does not exist here (e.g. inside WSL) gives its own path only", async () => {
    expect(await trustEntryDirectories("/no/such/place/for/rennet")).toEqual(["/no/such/place/for/rennet"]);
  });
});
