/** The build leaves no output of a module that no longer exists, and keeps every output that has one. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

const PRUNE = path.join(REPO_ROOT, "scripts", "prune-dist.js");

describe("scripts/prune-dist.js", () => {
  it("removes a moved module's stale outputs and keeps the live ones", () => {
    const stray = path.join(REPO_ROOT, "dist", "zz-moved-away");
    mkdirSync(stray, { recursive: true });
    for (const name of ["gone.js", "gone.d.ts", "gone.js.map"]) writeFileSync(path.join(stray, name), "");
    execFileSync(process.execPath, [PRUNE]);
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(path.join(REPO_ROOT, "dist", "index.js"))).toBe(true);
    expect(existsSync(path.join(REPO_ROOT, "dist", "index.d.ts"))).toBe(true);
  });
});
