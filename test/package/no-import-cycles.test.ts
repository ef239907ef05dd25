/**
 * No import circle in src/, type-only imports included: every relative `import`/`export … from` specifier of
 * every source file is an edge, and a depth-first walk must find no back edge.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

const SRC = path.join(REPO_ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return file.endsWith(".ts") ? [file] : [];
  });
}

/** Relative imports of one file, as source paths. Pure over the text. */
function relativeImports(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gms)].map(
    (match) => match[1] as string,
  );
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
}

function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe("the import graph of src/", () => {
  it("has no circle", () => {
    const files = sourceFiles(SRC);
    const graph = new Map(files.map((file) => [file, relativeImports(file, readFileSync(file, "utf8"))]));
    expect(files.length).toBeGreaterThan(100);
    const found = cycles(graph).map((cycle) => cycle.map((file) => path.relative(SRC, file)).join(" → "));
    expect(found).toEqual([]);
  });

  it("the check can fail: a two-file circle is found", () => {
    const graph = new Map([
      ["/a.ts", ["/b.ts"]],
      ["/b.ts", ["/a.ts"]],
    ]);
    expect(cycles(graph)).toEqual([["/a.ts", "/b.ts", "/a.ts"]]);
    expect(
      relativeImports("/x/y.ts", 'import type { T } from "../z.js";\nexport { u } from "./u.js";'),
    ).toEqual(["/z.ts", "/x/u.ts"]);
  });
});
