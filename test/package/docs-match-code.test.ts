/**
 * The documentation cannot drift from the code: every error code in src/ has its row in docs/errors.md (and
 * every row names a code that exists), every `NAME_LIKE_THIS` README.md and docs/ mention (an error code, an
 * environment variable, a constant) is one the code spells, every relative link in README.md and docs/ points to a file the
 * package ships (`npm pack --dry-run`), and docs/claude-code.md names exactly the event types a Claude Code session
 * never produces.
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

/** The union of every documented code: left out of what src writes, which it must not stand in for. */
const CODE_UNION = path.join(REPO_ROOT, "src/error-codes.ts");

function codesInSource(): Set<string> {
  const codes = new Set<string>();
  for (const file of files(path.join(REPO_ROOT, "src"), ".ts")) {
    if (file === CODE_UNION) continue;
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

/** The members of the exported `RennetErrorCode` union (src/error-codes.ts), as written there. */
function codesOfUnion(): Set<string> {
  const text = readFileSync(CODE_UNION, "utf8");
  const union = /export type RennetErrorCode =([^;]+);/.exec(text)?.[1] ?? "";
  return new Set([...union.matchAll(/"([A-Z][A-Z0-9_]+)"/g)].map((match) => match[1] as string));
}

describe("RennetErrorCode, the union a caller switches on", () => {
  it("has exactly the codes of docs/errors.md", () => {
    expect([...codesOfUnion()].sort()).toEqual([...codesInDocs()].sort());
  });
});

/** Names of other programs (Node, getconf) that the docs mention and no code of ours spells. */
const FOREIGN_NAMES = new Set([
  "ERR_REQUIRE_ASYNC_MODULE",
  "NODE_COMPILE_CACHE",
  "NODE_EXTRA_CA_CERTS",
  "LONG_BIT",
]);
const NAME = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

function docFiles(): string[] {
  return [path.join(REPO_ROOT, "README.md"), ...files(path.join(REPO_ROOT, "docs"), ".md")];
}

describe("names in README.md and docs/", () => {
  it("every error code, environment variable or constant they mention is one the code spells", () => {
    const spelled = new Set<string>();
    for (const dir of ["src", "scripts", "bin", "test"])
      for (const file of [".ts", ".js"].flatMap((ext) => files(path.join(REPO_ROOT, dir), ext)))
        for (const match of readFileSync(file, "utf8").matchAll(NAME)) spelled.add(match[0]);
    const unknown = new Set<string>();
    for (const doc of docFiles())
      for (const match of readFileSync(doc, "utf8").matchAll(NAME))
        if (!spelled.has(match[0]) && !FOREIGN_NAMES.has(match[0]))
          unknown.add(`${path.relative(REPO_ROOT, doc)}: ${match[0]}`);
    expect([...unknown].sort()).toEqual([]);
  });

  it('a name shown as an error code (`code: "X"`, `code === "X"`, `isRennetError(e, "X")`) is one src throws', () => {
    const source = codesInSource();
    const shown = /(?:code:\s*|code\s*===?\s*|isRennetError\([^,()]+,\s*)"([A-Z][A-Z0-9_]+)"/g;
    const unknown: string[] = [];
    for (const doc of docFiles())
      for (const match of readFileSync(doc, "utf8").matchAll(shown))
        if (!source.has(match[1] as string)) unknown.push(`${path.relative(REPO_ROOT, doc)}: ${match[1]}`);
    expect(unknown).toEqual([]);
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

describe("docs/claude-code.md names the events Claude Code never produces", () => {
  /** Event types as src/harness declares them (`type: "x";` members of the event union). */
  function eventTypes(): string[] {
    const text = readFileSync(path.join(REPO_ROOT, "src/harness/events.ts"), "utf8");
    return [...text.matchAll(/^ {2}type: "([a-z.-]+)";$/gm)].map((match) => match[1] as string);
  }

  /** Whether any source file a Claude Code session runs (all of src but Codex's, the CLI, the testkit) builds it. */
  function builtOutsideCodex(type: string): boolean {
    const excluded = ["codex", "cli", "testkit"].map((dir) => path.join(REPO_ROOT, "src", dir) + path.sep);
    return files(path.join(REPO_ROOT, "src"), ".ts")
      .filter((file) => !excluded.some((dir) => file.startsWith(dir)))
      .filter((file) => !file.endsWith(path.join("harness", "events.ts")))
      .some((file) => readFileSync(file, "utf8").includes(`type: "${type}"`));
  }

  it("its **Never emitted for Claude Code** list is exactly the event types only the Codex adapter builds", () => {
    const doc = readFileSync(path.join(REPO_ROOT, "docs/claude-code.md"), "utf8");
    const list = /\*\*Never emitted for Claude Code\*\*: ((?:`[a-z.-]+`(?:, | and )?)+)/.exec(doc)?.[1] ?? "";
    const documented = [...list.matchAll(/`([a-z.-]+)`/g)].map((match) => match[1] as string).sort();
    const never = eventTypes()
      .filter((type) => !builtOutsideCodex(type))
      .sort();
    expect(never.length).toBeGreaterThan(0);
    expect(documented).toEqual(never);
  });
});
