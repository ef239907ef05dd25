/**
 * `--tool ./tools.ts` in the built CLI under a Node that cannot import TypeScript (before type stripping): a
 * usage error that names the fix, before any agent is looked for. Under a Node that strips types the module
 * loads, so the case is skipped there.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

const run = promisify(execFile);
const stripsTypes = (process.features as { typescript?: unknown }).typescript !== undefined;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "rennet-cli-tool-ts-"));
  await writeFile(path.join(dir, "tools.ts"), "export const n: number = 1;\n");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(stripsTypes)("rennet codex run --tool ./tools.ts on a Node without type stripping", () => {
  it("exits 2 naming the fix: compile it to JavaScript, or run under a TypeScript loader", async () => {
    const bin = path.join(REPO_ROOT, "bin", "rennet.js");
    expect(existsSync(path.join(REPO_ROOT, "dist", "cli", "main.js"))).toBe(true);
    const error = await run(
      process.execPath,
      [bin, "codex", "run", "--tool", "./tools.ts", "--codex-bin", path.join(dir, "no-codex"), "hi"],
      { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, CODEX_HOME: dir } },
    ).then(
      () => null,
      (failure: { code: number; stderr: string }) => failure,
    );
    expect(error?.code).toBe(2);
    expect(error?.stderr).toContain("--tool ./tools.ts: cannot load");
    expect(error?.stderr).toContain(
      "cannot import TypeScript: compile the module to JavaScript (e.g. with tsc) and give the .js file",
    );
  });
});
