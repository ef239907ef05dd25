/** The build leaves no output of a module that no longer exists, and keeps every output that has one. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
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

  it("ships the declarations the types entry reaches, from dist/.types, and drops an unused type-only .js", () => {
    // a tiny package in a temp folder: index → a (runtime) → t (type-only); cli is not reachable from types
    const root = mkdtempSync(path.join(os.tmpdir(), "rennet-prune-"));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      };
      write("scripts/prune-dist.js", readFileSync(PRUNE, "utf8"));
      write(
        "package.json",
        JSON.stringify({ exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } } }),
      );
      write("bin/rennet.js", 'await import("../dist/cli.js");\n');
      for (const name of ["index", "a", "t", "cli"]) write(`src/${name}.ts`, "");
      write("dist/index.js", 'export * from "./a.js";\n');
      write("dist/a.js", "export const a = 1;\n");
      write("dist/t.js", "export {};\n");
      write("dist/cli.js", 'import "./a.js";\n');
      write("dist/cli.d.ts", "export {};\n");
      write("dist/.types/index.d.ts", 'export * from "./a.js";\n');
      write("dist/.types/a.d.ts", 'import type { T } from "./t.js";\nexport declare const a: T;\n');
      write("dist/.types/t.d.ts", "export type T = 1;\n");
      write("dist/.types/cli.d.ts", "export {};\n");
      execFileSync(process.execPath, [path.join(root, "scripts", "prune-dist.js")]);
      const shipped = (file: string) => existsSync(path.join(root, "dist", file));
      expect(["index.d.ts", "a.d.ts", "t.d.ts"].filter(shipped)).toEqual(["index.d.ts", "a.d.ts", "t.d.ts"]);
      expect(shipped("cli.d.ts")).toBe(false);
      expect(shipped("t.js")).toBe(false);
      expect(["index.js", "a.js", "cli.js"].filter(shipped)).toEqual(["index.js", "a.js", "cli.js"]);
      expect(readFileSync(path.join(root, "dist", "a.d.ts"), "utf8")).toContain("declare const a: T");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("reads the relative module specifiers of a built file", async () => {
    const { relativeSpecifiers } = (await import(PRUNE)) as { relativeSpecifiers(text: string): string[] };
    const text = [
      'import { a } from "./a.js";',
      "export * from '../b/c.js';",
      'type T = import("./t.js").T;',
      'import x from "ajv";',
      'const y = "./not-a-module";',
    ].join("\n");
    expect(relativeSpecifiers(text)).toEqual(["./a.js", "../b/c.js", "./t.js"]);
  });
});
