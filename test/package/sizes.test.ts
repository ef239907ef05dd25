/**
 * The size rule of src/ (docs/architecture.md): no file over 350 lines, no function over 80 (counted from the
 * line of its first token to the line of its closing brace; methods, arrow functions and accessors included).
 * A file or function that grows past them is split along a concept, not at a line count.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

const SRC = path.join(REPO_ROOT, "src");
const MAX_FILE_LINES = 350;
const MAX_FUNCTION_LINES = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return name.endsWith(".ts") ? [file] : [];
  });
}

/** `file:line name (n lines)` of every function longer than the limit. */
function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = lineOf(node.getStart(source));
      const lines = lineOf(node.end) - first + 1;
      const name = node.name?.getText(source) ?? "(anonymous)";
      if (lines > MAX_FUNCTION_LINES)
        found.push(`${path.relative(REPO_ROOT, file)}:${first} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("sizes in src/", () => {
  const files = sourceFiles(SRC).map((file) => ({ file, text: readFileSync(file, "utf8") }));

  it(`no file is longer than ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map(({ file, text }) => ({ file: path.relative(REPO_ROOT, file), lines: text.split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${file} (${lines} lines)`);
    expect(long).toEqual([]);
  });

  it(`no function is longer than ${MAX_FUNCTION_LINES} lines`, () => {
    expect(files.flatMap(({ file, text }) => longFunctions(file, text))).toEqual([]);
  });

  it("the scan sees functions of every kind (a 90-line method and arrow are both reported)", () => {
    const body = Array.from({ length: 88 }, (_, i) => `    const v${i} = ${i};`).join("\n");
    const text = `class C {\n  m() {\n${body}\n  }\n}\nconst f = () => {\n${body}\n};\n`;
    expect(longFunctions(path.join(SRC, "probe.ts"), text)).toEqual([
      "src/probe.ts:2 m (90 lines)",
      "src/probe.ts:93 (anonymous) (90 lines)",
    ]);
  });
});
