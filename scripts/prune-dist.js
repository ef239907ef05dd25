#!/usr/bin/env node
// Removes what tsc's incremental build leaves behind: a dist/ file whose src/ module no longer exists (a moved
// or deleted module would otherwise keep shipping its old .js and .d.ts).
// usage: node scripts/prune-dist.js
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
const SRC = path.join(ROOT, "src");
const OUTPUT = /\.(d\.ts\.map|d\.ts|js\.map|js)$/;

/** The src/ module a dist/ output was built from, or null for a file tsc does not emit. Pure. */
export function sourceOf(relative) {
  if (!OUTPUT.test(relative)) return null;
  return relative.replace(OUTPUT, ".ts");
}

function prune(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      prune(file);
      if (readdirSync(file).length === 0) rmSync(file, { recursive: true });
      continue;
    }
    const source = sourceOf(path.relative(DIST, file));
    if (source !== null && !existsSync(path.join(SRC, source))) rmSync(file);
  }
}

if (existsSync(DIST)) prune(DIST);
