/**
 * `import "rennet-adapters"` on a Node that can require ES modules resolves to `dist/sync-entry.js` (the
 * `module-sync` condition), which exports exactly `dist/index.js`'s names with the same values; CommonJS callers
 * get `dist/index.js` itself, and an ES module that imports the package can itself be required (the entry has no
 * top-level await).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

/** Runs an ES module body in a fresh node process at the repository root; returns what it printed, parsed. */
function runModule(body: string, args: readonly string[] = []): unknown {
  const out = execFileSync(process.execPath, [...args, "--input-type=module", "-e", body], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  return JSON.parse(out) as unknown;
}

/** A body that compares two loaded namespaces `a` and `b`: their names and whether every value is the same. */
const COMPARE = `
const names = (m) => Object.keys(m).sort();
console.log(JSON.stringify({
  a: names(a),
  b: names(b),
  same: names(b).every((name) => a[name] === b[name]),
  resolved: import.meta.resolve("rennet-adapters"),
}));`;

describe("the sync entry", () => {
  it("is what import resolves to where Node can require ES modules, with the built entry's names and values", () => {
    const result = runModule(`
const a = await import("rennet-adapters");
const b = await import("./dist/index.js");
${COMPARE}`) as { a: string[]; b: string[]; same: boolean; resolved: string };
    expect(
      result.resolved.endsWith(process.features.require_module ? "/dist/sync-entry.js" : "/dist/index.js"),
    ).toBe(true);
    expect(result.a).toEqual(result.b);
    expect(result.a).toContain("createCodex");
    expect(result.same).toBe(true);
  });

  it("gives CommonJS callers the static entry, and the same classes as import", () => {
    const result = runModule(`
import { createRequire } from "node:module";
const a = createRequire(import.meta.url)("rennet-adapters");
const b = await import("rennet-adapters");
const cjs = createRequire(import.meta.url).resolve("rennet-adapters");
console.log(JSON.stringify({ cjs, same: Object.keys(b).every((name) => a[name] === b[name]) }));`) as {
      cjs: string;
      same: boolean;
    };
    expect(result.cjs.endsWith("/dist/index.js")).toBe(true);
    expect(result.same).toBe(true);
  });

  it("leaves an ES module that imports the package requirable from CommonJS (no top-level await)", () => {
    // a consumer project with the package installed (a link to this checkout)
    const dir = mkdtempSync(path.join(os.tmpdir(), "rennet-sync-entry-"));
    try {
      mkdirSync(path.join(dir, "node_modules"));
      symlinkSync(REPO_ROOT, path.join(dir, "node_modules", "rennet-adapters"), "dir");
      const consumer = path.join(dir, "consumer.mjs");
      writeFileSync(consumer, 'export { createCodex, RennetError } from "rennet-adapters";\n');
      const result = runModule(`
import { createRequire } from "node:module";
const a = createRequire(import.meta.url)(${JSON.stringify(consumer)});
const b = await import("./dist/index.js");
console.log(JSON.stringify({ same: a.createCodex === b.createCodex && a.RennetError === b.RennetError }));`) as {
        same: boolean;
      };
      expect(result.same).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("falls back to index.js where Node cannot require ES modules", () => {
    const result = runModule(
      `
const a = await import("rennet-adapters");
const b = await import("./dist/index.js");
${COMPARE}`,
      ["--no-experimental-require-module"],
    ) as { a: string[]; b: string[]; same: boolean; resolved: string };
    expect(result.resolved.endsWith("/dist/index.js")).toBe(true);
    expect(result.same).toBe(true);
  });
});
