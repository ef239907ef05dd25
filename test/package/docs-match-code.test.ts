/**
 * The documentation cannot drift from the code: every error code in src/ has its row in docs/errors.md (and
 * every row names a code that exists), and every relative link in README.md and docs/ points to a file the
 * package ships (`npm pack --dry-run`).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

function files(dir: string, ext: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return files(file, ext);
    return file.endsWith(ext) ? [file] : [];
  });
}

/**
 * Codes as src writes them: a `RennetError<"A" | "B">` argument, the first argument of an error constructor
 * or `super`, the code of an `isRennetError` check, a member of a code union, a `code:` value.
 */
const CODE = String.raw`"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"`;
const CONTEXTS = [
  String.raw`RennetError<[^>]*?`,
  String.raw`Error\(\s*`,
  String.raw`super\(\s*`,
  String.raw`invalid\(\s*`,
  String.raw`isRennetError\([^,()]+,\s*`,
  String.raw`\|\s*`,
  String.raw`code:\s*`,
].map((context) => new RegExp(context + CODE, "g"));

function codesInSource(): Set<string> {
  const codes = new Set<string>();
  for (const file of files(path.join(REPO_ROOT, "src"), ".ts")) {
    const text = readFileSync(file, "utf8");
    for (const pattern of CONTEXTS) for (const match of text.matchAll(pattern)) codes.add(match[1] as string);
    // a union of codes spans lines: every member of `RennetError<…>`
    for (const generic of text.matchAll(/RennetError<([^>]+)>/g))
      for (const member of (generic[1] as string).matchAll(new RegExp(CODE, "g")))
        codes.add(member[1] as string);
  }
  return codes;
}

function codesInDocs(): Set<string> {
  const text = readFileSync(path.join(REPO_ROOT, "docs/errors.md"), "utf8");
  return new Set([...text.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1] as string));
}

describe("docs/errors.md lists every error code", () => {
  it("every code src throws has a row, and every row a code src has", () => {
    const source = codesInSource();
    const docs = codesInDocs();
    expect(source.size).toBeGreaterThan(35);
    expect([...source].filter((code) => !docs.has(code)).sort()).toEqual([]);
    expect([...docs].filter((code) => !source.has(code)).sort()).toEqual([]);
  });
});

describe("links in README.md and docs/", () => {
  it("point only to files the package ships", () => {
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    const shipped = new Set((JSON.parse(out) as [{ files: { path: string }[] }])[0].files.map((f) => f.path));
    const docs = [
      "README.md",
      ...files(path.join(REPO_ROOT, "docs"), ".md").map((f) => path.relative(REPO_ROOT, f)),
    ];
    expect(docs.every((doc) => shipped.has(doc))).toBe(true);
    const broken: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(path.join(REPO_ROOT, doc), "utf8");
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = (match[1] as string).split("#")[0] as string;
        if (target === "" || /^[a-z]+:/i.test(target)) continue;
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(doc), target));
        if (!shipped.has(resolved)) broken.push(`${doc} → ${match[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
