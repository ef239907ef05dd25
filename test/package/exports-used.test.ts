/**
 * The package's surface stays what it means to be: every value a src module exports is used by another src
 * module (or `bin/`), or is offered by an entry (`index.ts`, `sync-entry.ts`, `testkit/index.ts`) or by the tests'
 * internal module (`internal/test-hooks.ts`), which nothing in src imports and `package.json` does not export;
 * and `index.ts` exports exactly the names the README's "Exports" section lists.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

const SRC = path.join(REPO_ROOT, "src");
const OFFERING = ["index.ts", "sync-entry.ts", "testkit/index.ts", "internal/test-hooks.ts"];
/**
 * The executable discovery engine's files: their exports follow that engine's own plan (a spec a second
 * harness fills), so they are not held to this rule.
 */
const DISCOVERY_ENGINE = [
  /^discovery\//,
  /^codex\/discovery\/(?!handshake-probe\.ts$)/,
  /^codex\/launch\//,
  /^claude\/discovery\//,
];

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return files(file, ext);
    return ext.test(file) ? [file] : [];
  });
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
}

/** The names a module exports as values (functions, classes, constants), by its own declarations. */
function valueExports(source: ts.SourceFile): string[] {
  return source.statements.flatMap((statement) => {
    const exported = ts.canHaveModifiers(statement)
      ? (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) return [];
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.map((d) => d.name.getText());
    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement))
      return statement.name ? [statement.name.text] : [];
    return [];
  });
}

/** `from`'s relative specifier as a path under src/ (a `dist/…js` one, from bin/, as its source). */
function target(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const resolved = path.resolve(path.dirname(from), specifier).replace(/\/dist\//, "/src/");
  return path.relative(SRC, resolved.replace(/\.js$/, ".ts"));
}

interface Uses {
  /** `module#name` for every named import or re-export. */
  named: Set<string>;
  /** Modules imported whole (`import * as`, `export *`), with the text of the file that did. */
  whole: Array<{ module: string; text: string; from: string }>;
  /** Modules loaded on first use (`new URL("…", import.meta.url)`). */
  lazy: Set<string>;
  /** Modules re-exported whole (`export * from`, `export * as x from`): every name is offered. */
  offeredWhole: Set<string>;
}

function usesOf(users: readonly string[]): Uses {
  const uses: Uses = { named: new Set(), whole: [], lazy: new Set(), offeredWhole: new Set() };
  for (const file of users) {
    const source = parse(file);
    const text = source.getFullText();
    const from = path.relative(SRC, file);
    for (const statement of source.statements) {
      if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      const module = target(file, specifier.text);
      if (module === null) continue;
      const bindings = ts.isImportDeclaration(statement)
        ? statement.importClause?.namedBindings
        : statement.exportClause;
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
        for (const element of bindings.elements)
          uses.named.add(`${module}#${(element.propertyName ?? element.name).text}`);
      } else if (ts.isExportDeclaration(statement)) uses.offeredWhole.add(module);
      else uses.whole.push({ module, text: text.replace(statement.getFullText(), ""), from });
    }
    // a load by path (`import("…")`, a `require`), e.g. bin/'s load of the CLI: the module is used by name
    for (const match of text.matchAll(/\(\s*"(\.{1,2}\/[^"]+\.js)"\s*\)/g)) {
      const module = target(file, match[1] as string);
      if (module !== null) uses.whole.push({ module, text, from });
    }
    for (const match of text.matchAll(/\bnew URL\(\s*"(\.{1,2}\/[^"]+)"\s*,\s*import\.meta\.url\s*\)/g))
      uses.lazy.add(target(file, match[1] as string) as string);
  }
  return uses;
}

/** Value exports of src modules that nothing uses or offers, as `module#name`. */
function unusedExports(): string[] {
  const sources = files(SRC, /\.ts$/);
  const users = [...sources, ...files(path.join(REPO_ROOT, "bin"), /\.js$/)];
  const uses = usesOf(users);
  const texts = new Map(sources.map((file) => [path.relative(SRC, file), readFileSync(file, "utf8")]));
  const word = (name: string): RegExp => new RegExp(`\\b${name}\\b`);
  return sources.flatMap((file) => {
    const module = path.relative(SRC, file);
    if (OFFERING.includes(module) || DISCOVERY_ENGINE.some((p) => p.test(module))) return [];
    return valueExports(parse(file))
      .filter((name) => {
        if (uses.offeredWhole.has(module) || uses.named.has(`${module}#${name}`)) return false;
        if (uses.whole.some((use) => use.module === module && word(name).test(use.text))) return false;
        // a module loaded on first use is reached through its loader: its names appear where the load is used
        if (uses.lazy.has(module))
          return ![...texts].some(([other, text]) => other !== module && word(name).test(text));
        return true;
      })
      .map((name) => `${module}#${name}`);
  });
}

/** The names the README's "Exports" section lists: every backticked identifier of its bullets. */
function documentedExports(): Set<string> {
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const section = /^### Exports\n([\s\S]*?)\n#{2,3} /m.exec(readme)?.[1] ?? "";
  const bullets = section.split("\n").filter((line) => /^\s*(- | {2})/.test(line));
  return new Set(
    bullets.flatMap((line) => [...line.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1] as string)),
  );
}

/** Every name `src/index.ts` exports, by its export declarations (`export type *` excepted: docs/events.md). */
function indexExports(): Set<string> {
  const source = parse(path.join(SRC, "index.ts"));
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    )
      for (const element of statement.exportClause.elements) names.add(element.name.text);
  }
  return names;
}

describe("the package's surface", () => {
  it("exports no value that nothing uses or offers", () => {
    expect(unusedExports()).toEqual([]);
  });

  it("keeps the tests' internal module out of src and out of package.json", () => {
    const importers = files(SRC, /\.ts$/).filter(
      (file) =>
        !file.endsWith("/internal/test-hooks.ts") &&
        /from "[./]*internal\/test-hooks\.js"/.test(readFileSync(file, "utf8")),
    );
    expect(importers).toEqual([]);
    const manifest = readFileSync(path.join(REPO_ROOT, "package.json"), "utf8");
    expect(manifest).not.toContain("internal");
  });

  it("exports from the package entry exactly what the README lists", () => {
    const exported = indexExports();
    const documented = documentedExports();
    expect(exported.size).toBeGreaterThan(50);
    expect([...exported].filter((name) => !documented.has(name)).sort()).toEqual([]);
    expect([...documented].filter((name) => !exported.has(name)).sort()).toEqual([]);
  });
});

describe("the surface check can fail", () => {
  it("finds a module's value exports, not its types", () => {
    const source = ts.createSourceFile(
      "/x.ts",
      "export const a = 1;\nexport function b() {}\nexport class C {}\nexport type T = 1;\nconst d = 2;",
      ts.ScriptTarget.ES2022,
      true,
    );
    expect(valueExports(source)).toEqual(["a", "b", "C"]);
  });
});
