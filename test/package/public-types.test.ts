/**
 * The shipped declarations (`dist/**\/*.d.ts`, built by `npm test`) carry no member marked `@internal`, and no
 * two files of src/ export a type under the same name; every event type, and every export of the package's entry
 * points (a namespace of builders excepted: its module says what it is), has a doc comment for its hover.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

function declarations(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return declarations(file);
    return file.endsWith(".d.ts") ? [file] : [];
  });
}

describe("public declarations", () => {
  it("strip every @internal member (stripInternal), e.g. CodexSessionClient.startInternal", () => {
    const files = declarations(path.join(REPO_ROOT, "dist"));
    expect(files.length).toBeGreaterThan(50);
    const leaks = files.filter((file) => /@internal|startInternal/.test(readFileSync(file, "utf8")));
    expect(leaks.map((file) => path.relative(REPO_ROOT, file))).toEqual([]);
    const client = readFileSync(path.join(REPO_ROOT, "dist/codex/client/session-client.d.ts"), "utf8");
    expect(client).toContain("runStreamed(");
  });
});

/** `export interface|type|class Name` in each file of src/. */
function exportedDeclarations(dir: string): { name: string; file: string }[] {
  return readdirSync(dir).flatMap((entry) => {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) return exportedDeclarations(file);
    if (!file.endsWith(".ts")) return [];
    const text = readFileSync(file, "utf8");
    return [...text.matchAll(/^export (?:declare )?(?:abstract )?(?:interface|type|class) (\w+)/gm)].map(
      (match) => ({ name: match[1] as string, file: path.relative(REPO_ROOT, file) }),
    );
  });
}

describe("exported type names", () => {
  it("each name one declaration, so a caller's `SchemaIssue` is never a second, unrelated shape", () => {
    const byName = new Map<string, string[]>();
    for (const { name, file } of exportedDeclarations(path.join(REPO_ROOT, "src")))
      byName.set(name, [...(byName.get(name) ?? []), file]);
    const twice = [...byName]
      .filter(([, where]) => where.length > 1)
      .map(([name, where]) => `${name}: ${where}`);
    expect(twice).toEqual([]);
  });
});

describe("the event types' hover docs", () => {
  it("every type src/harness/events.ts exports (HarnessEvent and each event) carries a doc comment", () => {
    const text = readFileSync(path.join(REPO_ROOT, "src/harness/events.ts"), "utf8");
    const undocumented = [...text.matchAll(/(\*\/\n)?^export (?:interface|type) (\w+)/gm)]
      .filter((match) => match[1] === undefined)
      .map((match) => match[2]);
    expect(undocumented).toEqual([]);
  });
});

/** The names `entry` exports whose declaration has no doc comment (namespace re-exports left out). */
function undocumentedExports(entry: string): string[] {
  const program = ts.createProgram([entry], { strict: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`no module for ${entry}`);
  return checker
    .getExportsOfModule(module)
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (target.flags & ts.SymbolFlags.ValueModule) return false;
      return ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === "";
    })
    .map((symbol) => symbol.getName());
}

describe("the entry points' hover docs", () => {
  it.each(["dist/index.d.ts", "dist/testkit/index.d.ts"])(
    "every export of %s carries a doc comment",
    (entry) => {
      expect(undocumentedExports(path.join(REPO_ROOT, entry))).toEqual([]);
    },
  );
});
