/**
 * The floors of src/ (docs/architecture.md): a file imports files of its own folder and of lower floors only,
 * never a folder on a higher floor or a sibling on the same floor, and nothing imports in a circle. Every
 * relative specifier of every source file is an edge: `import`/`export … from` (type-only too), a bare
 * `import "…"`, and a deferred load's `import("…")` and `new URL("…", import.meta.url)`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

const SRC = path.join(REPO_ROOT, "src");

/**
 * Folders of src/, lowest floor first; `.` is the loose helpers at the root, `index.ts` the package entry and
 * `sync-entry.ts` the entry that requires it.
 */
const FLOORS: readonly (readonly string[])[] = [
  ["."],
  ["harness", "jsonl", "schema", "mcp"],
  ["process"],
  ["session", "discovery", "call", "tools"],
  ["codex", "claude"],
  ["testkit", "cli"],
  ["index.ts", "internal"],
  ["sync-entry.ts"],
];

/** Folders of src/codex/, lowest floor first; `.` is codex's own loose files (its errors). */
const CODEX_FLOORS: readonly (readonly string[])[] = [
  [".", "protocol", "schema"],
  ["launch"],
  ["versions"],
  ["app-server"],
  ["trust"],
  ["turn", "discovery", "mcp"],
  ["client"],
];

/** The folders that know no harness: none of them imports anything from src/codex/. */
const NEUTRAL = ["harness", "jsonl", "schema", "mcp", "process", "session", "discovery", "call", "tools"];

/** Neutral folders whose text (comments included) names no Codex concept; a second harness reads them as its own. */
const WORDLESS = ["harness", "jsonl", "schema", "process", "session", "tools"];

/** A Codex concept in a line: its name, its app-server. The registry of harness names is the one place allowed. */
const CODEX_WORD = /codex|app[- ]?server/i;
const HARNESS_REGISTRY = /^export type HarnessName = /;

/** `file:line: text` for every line of `text` that names a Codex concept. Pure. */
function codexMentions(file: string, text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, index) =>
      CODEX_WORD.test(line) && !HARNESS_REGISTRY.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
    );
}

type Graph = ReadonlyMap<string, readonly string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return file.endsWith(".ts") ? [file] : [];
  });
}

const SPECIFIERS = [
  /^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gms,
  /^\s*import\s+"(\.{1,2}\/[^"]+)"/gm,
  /\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g,
  /\bnew URL\(\s*"(\.{1,2}\/[^"]+)"\s*,\s*import\.meta\.url\s*\)/g,
];

/** Relative imports of one file, as source paths. Pure over the text. */
function relativeImports(file: string, text: string): string[] {
  const specifiers = SPECIFIERS.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => match[1] as string),
  );
  const targets = specifiers.map((specifier) =>
    path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")),
  );
  return [...new Set(targets)];
}

/** Every src file with its relative imports of other src files (a specifier naming no file is left out). */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      path.relative(SRC, file),
      relativeImports(file, readFileSync(file, "utf8"))
        .filter((target) => known.has(target))
        .map((target) => path.relative(SRC, target)),
    ]),
  );
}

function cycles(graph: Graph): string[][] {
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

/** The package's entry files at the root of src/, each a floor of its own. */
const ENTRIES = ["index.ts", "sync-entry.ts"];

/** The folder of `file` (a path under `base`, `/`-separated): its first segment, `.` for a loose file. */
function folderOf(file: string): string {
  const slash = file.indexOf("/");
  if (slash >= 0) return file.slice(0, slash);
  return ENTRIES.includes(file) ? file : ".";
}

function floorOf(floors: readonly (readonly string[])[], folder: string): number {
  return floors.findIndex((floor) => floor.includes(folder));
}

/**
 * Why the edge `from → to` breaks the floors, or null when it keeps them: inside src/codex/ by its own floors,
 * elsewhere by the floors of src/. A folder on no floor is a break too: a new folder must be given its floor.
 */
function breach(from: string, to: string): string | null {
  const [floors, a, b] =
    from.startsWith("codex/") && to.startsWith("codex/")
      ? [CODEX_FLOORS, folderOf(from.slice("codex/".length)), folderOf(to.slice("codex/".length))]
      : [FLOORS, folderOf(from), folderOf(to)];
  if (a === b && !ENTRIES.includes(a)) return null;
  const [floorA, floorB] = [floorOf(floors, a), floorOf(floors, b)];
  if (floorA < 0 || floorB < 0) return `${from} → ${to}: folder ${floorA < 0 ? a : b} is on no floor`;
  if (floorB > floorA) return `${from} → ${to}: up from floor ${floorA} (${a}) to floor ${floorB} (${b})`;
  if (floorB === floorA) return `${from} → ${to}: sideways between siblings ${a} and ${b} on floor ${floorA}`;
  return null;
}

function breaches(graph: Graph): string[] {
  return [...graph].flatMap(([from, targets]) =>
    targets.map((to) => breach(from, to)).filter((found): found is string => found !== null),
  );
}

describe("the import graph of src/", () => {
  const graph = importGraph();

  it("is read whole: every file and a plausible number of edges", () => {
    expect(graph.size).toBeGreaterThan(150);
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
    expect(graph.get("codex/client/lazy-entries.ts")).toContain("codex/discovery/discover.ts");
  });

  it("has no circle", () => {
    const found = cycles(graph).map((cycle) => cycle.join(" → "));
    expect(found).toEqual([]);
  });

  it("imports only down the floors, in src/ and inside src/codex/", () => {
    expect(breaches(graph)).toEqual([]);
  });

  it("keeps the neutral folders free of src/codex/", () => {
    const found = [...graph].flatMap(([from, targets]) =>
      NEUTRAL.includes(folderOf(from))
        ? targets.filter((to) => to.startsWith("codex/")).map((to) => `${from} → ${to}`)
        : [],
    );
    expect(found).toEqual([]);
  });
});

describe("the harness-neutral folders", () => {
  it("name no Codex concept, comments included", () => {
    const found = sourceFiles(SRC)
      .filter((file) => WORDLESS.includes(folderOf(path.relative(SRC, file))))
      .flatMap((file) => codexMentions(path.relative(SRC, file), readFileSync(file, "utf8")));
    expect(found).toEqual([]);
  });
});

describe("the checks can fail", () => {
  it("find a Codex concept in a comment, and pass the registry of harness names", () => {
    const text = 'export type HarnessName = "codex" | "claude-code";\n/** Reads the app-server\'s stdout. */';
    expect(codexMentions("harness/x.ts", text)).toEqual([
      "harness/x.ts:2: /** Reads the app-server's stdout. */",
    ]);
  });

  it("find a two-file circle", () => {
    const graph = new Map([
      ["/a.ts", ["/b.ts"]],
      ["/b.ts", ["/a.ts"]],
    ]);
    expect(cycles(graph)).toEqual([["/a.ts", "/b.ts", "/a.ts"]]);
  });

  it("read every kind of specifier", () => {
    const text = [
      'import type { T } from "../z.js";',
      'export { u } from "./u.js";',
      'import "./side.js";',
      'const m = await loadModule(new URL("./lazy.js", import.meta.url), () => import("./lazy.js"));',
    ].join("\n");
    expect(relativeImports("/x/y.ts", text)).toEqual(["/z.ts", "/x/u.ts", "/x/side.ts", "/x/lazy.ts"]);
  });

  it("find an upward, a sideways and an unplaced import, and pass a downward one", () => {
    const graph = new Map([
      ["process/spawn-child.ts", ["session/timer-set.ts", "jsonl/transport.ts", "errors.ts"]],
      ["harness/events.ts", ["jsonl/errors.ts"]],
      ["codex/launch/npm-native.ts", ["codex/versions/capabilities.ts", "discovery/locus-host.ts"]],
      ["codex/turn/turn-start.ts", ["codex/mcp/mcp-policy.ts", "codex/trust/project-trust.ts"]],
      ["cli/main.ts", ["shell/x.ts"]],
    ]);
    expect(breaches(graph)).toEqual([
      "process/spawn-child.ts → session/timer-set.ts: up from floor 2 (process) to floor 3 (session)",
      "harness/events.ts → jsonl/errors.ts: sideways between siblings harness and jsonl on floor 1",
      "codex/launch/npm-native.ts → codex/versions/capabilities.ts: up from floor 1 (launch) to floor 2 (versions)",
      "codex/turn/turn-start.ts → codex/mcp/mcp-policy.ts: sideways between siblings turn and mcp on floor 5",
      "cli/main.ts → shell/x.ts: folder shell is on no floor",
    ]);
  });
});
