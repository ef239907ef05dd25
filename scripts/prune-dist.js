#!/usr/bin/env node
// Shapes what `tsc -p tsconfig.build.json` leaves in dist/ into what ships:
// - removes an output whose src/ module no longer exists (a moved or deleted module would otherwise keep
//   shipping its old .js and .d.ts: tsc's incremental build never deletes);
// - ships only the declarations a consumer can reach: tsc writes every .d.ts to dist/.types (complete, tsc's
//   own), and each one reachable from the package's `types` entry points is copied beside its .js; the others
//   (the CLI's, internals no public type names) are not shipped;
// - drops a type-only module's empty .js (`export {};`) that no runtime entry point or module imports.
// Every dist/ file is a 4 KB block or more on disk, so each file left out shrinks a consumer's install.
// usage: node scripts/prune-dist.js
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
const TYPES = path.join(DIST, ".types");
const SRC = path.join(ROOT, "src");
const OUTPUT = /\.(d\.ts\.map|d\.ts|js\.map|js)$/;

/** The src/ module a dist/ output was built from, or null for a file tsc does not emit. Pure. */
export function sourceOf(relative) {
  if (!OUTPUT.test(relative)) return null;
  return relative.replace(OUTPUT, ".ts");
}

/** The relative module specifiers (`./x.js`, `../y/z.js`) a built .js or .d.ts file names. Pure. */
export function relativeSpecifiers(text) {
  return [...text.matchAll(/["'](\.{1,2}\/[^"'\n]+?\.js)["']/g)].map((match) => match[1]);
}

/** Every file below `dir` (absolute paths), skipping the folders named in `skip`. */
function filesBelow(dir, skip = new Set()) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return skip.has(file) ? [] : filesBelow(file, skip);
    return [file];
  });
}

/** The files reachable from `entries` through relative specifiers; `toFile` maps a specifier's target. */
function reachable(entries, toFile) {
  const seen = new Set();
  const queue = entries.filter((entry) => existsSync(entry));
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of relativeSpecifiers(readFileSync(file, "utf8"))) {
      const target = toFile(path.resolve(path.dirname(file), specifier));
      if (existsSync(target)) queue.push(target);
    }
  }
  return seen;
}

function removeStaleOutputs(base) {
  for (const file of filesBelow(base, new Set([TYPES]))) {
    const source = sourceOf(path.relative(base, file));
    if (source !== null && !existsSync(path.join(SRC, source))) rmSync(file);
  }
}

function removeEmptyFolders(dir) {
  for (const name of readdirSync(dir)) {
    const folder = path.join(dir, name);
    if (!statSync(folder).isDirectory()) continue;
    removeEmptyFolders(folder);
    if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
  }
}

/** The package.json `exports` targets of one condition (`types` or `default`), as absolute paths. */
function exportTargets(condition) {
  const { exports } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  return Object.values(exports)
    .map((target) => (typeof target === "object" ? target[condition] : undefined))
    .filter((target) => typeof target === "string" && target.startsWith("./dist/"))
    .map((target) => path.join(ROOT, target));
}

function shipReachableDeclarations() {
  if (!existsSync(TYPES)) return;
  const inTypes = (file) => path.join(TYPES, path.relative(DIST, file));
  const entries = exportTargets("types").map(inTypes);
  const shipped = reachable(entries, (target) => target.replace(/\.js$/, ".d.ts"));
  for (const file of filesBelow(DIST, new Set([TYPES]))) {
    if (file.endsWith(".d.ts") && !shipped.has(inTypes(file))) rmSync(file);
  }
  for (const declaration of shipped) {
    const target = path.join(DIST, path.relative(TYPES, declaration));
    const same = existsSync(target) && readFileSync(target).equals(readFileSync(declaration));
    if (same) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(declaration, target);
  }
}

function dropUnusedTypeOnlyModules() {
  const entries = [...exportTargets("default"), path.join(ROOT, "bin", "rennet.js")];
  const loaded = reachable(entries, (target) => target);
  for (const file of filesBelow(DIST, new Set([TYPES]))) {
    if (!file.endsWith(".js") || loaded.has(file)) continue;
    if (readFileSync(file, "utf8").trim() === "export {};") rmSync(file);
  }
}

if (existsSync(DIST)) {
  removeStaleOutputs(DIST);
  if (existsSync(TYPES)) removeStaleOutputs(TYPES);
  shipReachableDeclarations();
  dropUnusedTypeOnlyModules();
  removeEmptyFolders(DIST);
}
