import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startMain } from "./helpers/cli-harness.js";

let root = "";
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "rennet-cli-project-config-")));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("rennet codex run in a repository whose .codex/config.toml is not a regular file", () => {
  it("fails before discovery starts codex there, with the file named and no internal error", async () => {
    const repo = join(root, "repo");
    await mkdir(join(repo, ".codex"), { recursive: true });
    const file = join(repo, ".codex", "config.toml");
    await symlink("/dev/zero", file);
    const env = {
      PATH: join(root, "empty"),
      HOME: join(root, "home"),
      CODEX_HOME: join(root, "codex-home"),
      RENNET_STATE_DIR: join(root, "state"),
    };
    const run = startMain(["codex", "run", "--cwd", repo, "hi"], { env, cwd: root }, undefined);
    expect(await run.exit).toBe(1);
    expect(run.stderr.text).toContain(`error: not a regular file: ${file}`);
    expect(run.stderr.text).not.toContain("internal error");
    expect(run.stdout.text).toBe("");
  });
});
