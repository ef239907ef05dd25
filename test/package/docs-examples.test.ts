/**
 * The ```ts examples of README.md and docs/*.md compile as a consumer writes them: each block is its own module
 * in a temp dir whose `node_modules/rennet-adapters` is this package (its built `dist/` declarations, reached
 * through package.json `exports`, never src/), and one strict compiler program checks them all. A block that is
 * deliberately not a program (a shape in the docs' notation, a signature listing) has `<!-- fragment: why -->`
 * on the line before its fence; a `type`/`interface` a block shows under an exported name must be that type. Every `rennet codex|claude <command> …` line the docs show (in a code span or a
 * code block) parses with that command's own spec, so a renamed or removed option fails here.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";
import { parseCommandLine } from "../../src/cli/command-line.js";
import { CLAUDE_COMMANDS, CODEX_COMMANDS } from "../../src/cli/commands/command-table.js";
import { isRennetError } from "../../src/errors.js";

type Block = { doc: string; line: number; code: string; fragment: boolean };

const DOCS = ["README.md", ...readdirSync(path.join(REPO_ROOT, "docs")).map((name) => `docs/${name}`)].filter(
  (doc) => doc.endsWith(".md"),
);

/** Every ```ts block of a document: its first code line (1-based) and whether a fragment mark precedes it. */
function tsBlocks(doc: string): Block[] {
  const lines = readFileSync(path.join(REPO_ROOT, doc), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i] as string)) {
      if (/^```/.test(lines[i] as string)) while (++i < lines.length && !/^```/.test(lines[i] as string));
      continue;
    }
    let before = i - 1;
    while (before >= 0 && (lines[before] as string).trim() === "") before--;
    const fragment = /^<!-- fragment: \S.* -->$/.test((lines[before] ?? "").trim());
    const start = i + 1;
    while (++i < lines.length && !/^```/.test(lines[i] as string));
    blocks.push({ doc, line: start + 1, code: lines.slice(start, i).join("\n"), fragment });
  }
  return blocks;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2023.d.ts"],
  types: ["node"],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  noImplicitOverride: true,
  skipLibCheck: true,
  noEmit: true,
};

/** A temp dir whose `node_modules/rennet-adapters` is this package, as a consumer installs it. */
function consumerDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rennet-docs-examples-"));
  dirs.push(dir);
  mkdirSync(path.join(dir, "node_modules", "@types"), { recursive: true });
  symlinkSync(REPO_ROOT, path.join(dir, "node_modules", "rennet-adapters"));
  symlinkSync(path.join(REPO_ROOT, "node_modules/@types/node"), path.join(dir, "node_modules/@types/node"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  return dir;
}

/** The names `import … from "rennet-adapters"` offers, values and types. */
function publishedNames(dir: string): { names: Set<string>; program: ts.Program } {
  const file = path.join(dir, "published.ts");
  writeFileSync(file, `import type * as published from "rennet-adapters";\nexport type { published };\n`);
  const program = ts.createProgram([file], OPTIONS);
  const source = program.getSourceFile(file) as ts.SourceFile;
  const specifier = (source.statements[0] as ts.ImportDeclaration).moduleSpecifier;
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(specifier);
  const names = new Set(module ? checker.getExportsOfModule(module).map((symbol) => symbol.name) : []);
  return { names, program };
}

/** Top-level `type X` / `interface X` a block declares. */
function declaredTypes(code: string): string[] {
  const source = ts.createSourceFile("block.ts", code, ts.ScriptTarget.ES2022);
  return source.statements.flatMap((statement) =>
    ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement) ? [statement.name.text] : [],
  );
}

/**
 * The diagnostics of one program over every block (`block-N.ts`). A type a block declares under the name of a
 * published one must be that type (each assignable to the other): one line per such name follows the block.
 */
function compile(blocks: Block[]): string[] {
  const dir = consumerDir();
  const published = publishedNames(dir);
  expect(published.names.has("createCodex")).toBe(true);
  const checked = new Map<string, string[]>();
  const files = blocks.map((block, index) => {
    const file = path.join(dir, `block-${index}.ts`);
    const names = declaredTypes(block.code).filter((name) => published.names.has(name));
    checked.set(file, names);
    const checks = names.map(
      (name) =>
        `import type { ${name} as P_${name} } from "rennet-adapters"; ` +
        `export const same_${name}: [${name}] extends [P_${name}] ? ([P_${name}] extends [${name}] ? true : false) : false = true;`,
    );
    // `export {}` makes a block without imports a module too (top-level await, no global name clashes)
    writeFileSync(file, [block.code, ...checks, "export {};\n"].join("\n"));
    return file;
  });
  const program = ts.createProgram(files, OPTIONS, undefined, published.program);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const file = diagnostic.file?.fileName ?? "";
    const block = blocks[files.indexOf(file)];
    if (!block || diagnostic.start === undefined) return message;
    const { line } = ts.getLineAndCharacterOfPosition(diagnostic.file as ts.SourceFile, diagnostic.start);
    const length = block.code.split("\n").length;
    if (line < length) return `${block.doc}:${block.line + line}: ${message}`;
    const name = checked.get(file)?.[line - length];
    return `${block.doc}:${block.line}: the \`${name}\` shown is not the one "rennet-adapters" exports`;
  });
}

describe("the ```ts examples of README.md and docs/", () => {
  const blocks = DOCS.flatMap(tsBlocks);

  it("are found, and few of them are marked as fragments", () => {
    expect(blocks.length).toBeGreaterThan(20);
    expect(blocks.filter((block) => block.fragment).length).toBeLessThan(blocks.length / 3);
  });

  it("compile, strict, against the package's public types", () => {
    expect(compile(blocks.filter((block) => !block.fragment))).toEqual([]);
  });
});

type CommandLine = { doc: string; line: number; text: string };

/**
 * Each `rennet codex|claude <name> …` (or `bin/rennet.js …`) shown in a code span or a code block, up to a shell
 * operator or comment.
 */
function commandLines(doc: string): CommandLine[] {
  const found: CommandLine[] = [];
  let fenced = false;
  readFileSync(path.join(REPO_ROOT, doc), "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (/^\s*```/.test(line)) fenced = !fenced;
      else
        for (const code of fenced
          ? [line]
          : [...line.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string))
          for (const match of code.matchAll(/(?:^|[\s|$(]|bin\/)(rennet(?:\.js)? (?:codex|claude) [a-z].*)/g))
            found.push({ doc, line: index + 1, text: match[1] as string });
    });
  return found;
}

/** Shell words up to the first unquoted `|`, `<`, `>`, `;`, `&` or `#`; quotes removed; `<prompt>` kept. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/(<[a-z-]+>)|"([^"]*)"|'([^']*)'|([|<>;&#])|([^\s"'|<>;&#]+)/g)) {
    if (match[4] !== undefined) break;
    words.push(match[1] ?? match[2] ?? match[3] ?? (match[5] as string));
  }
  return words;
}

/** A word that stands for a value in the usage notation (`FILE`, `DIR`, `S`, `<peer>`, `…`). */
const isPlaceholder = (word: string): boolean => /^([A-Z]+|<[a-z-]+>|…)$/.test(word);

/** Why `rennet <group> <name> args…` does not parse as the docs show it; null when it does. */
async function misparse(words: readonly string[]): Promise<string | null> {
  const [, group, name, ...rest] = words;
  const table = group === "codex" ? CODEX_COMMANDS : CLAUDE_COMMANDS;
  const entry = table.find((command) => command.name === name);
  if (entry === undefined) return `no command '${group} ${name}'`;
  // the usage notation: `[--json]` is `--json`, `[options]` stands for none
  const args = rest.filter((word) => word !== "[options]").map((word) => word.replace(/^\[|\]$/g, ""));
  try {
    parseCommandLine(await entry.load(), args, `rennet ${group} ${name}`);
    return null;
  } catch (error) {
    if (!isRennetError(error, "CLI_USAGE")) throw error;
    const { message } = error;
    // prose names a command, or an option of it, without the rest a run needs
    if (/^missing required argument|^required option .* not specified$/.test(message)) return null;
    if (/argument missing$/.test(message) && args.at(-1)?.startsWith("--")) return null;
    const refused = /argument '(.*)' is invalid/.exec(message);
    if (refused && isPlaceholder(refused[1] as string)) return null;
    return message;
  }
}

describe("the `rennet …` command lines of README.md and docs/", () => {
  it("parse with the command's own options", async () => {
    const lines = DOCS.flatMap(commandLines);
    expect(lines.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const { doc, line, text } of lines) {
      const why = await misparse(shellWords(text));
      if (why !== null) wrong.push(`${doc}:${line}: ${text} → ${why}`);
    }
    expect(wrong).toEqual([]);
  });
});
