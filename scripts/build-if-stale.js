#!/usr/bin/env node
// Builds dist/ with tsc unless it is already up to date: the quick-start commands (`npm run demo`,
// `npm test`, `npm run bench`) run right after `npm install`, whose `prepare` just built it.
// Stale means: no dist/.tsbuildinfo, or a file or folder under src/ (a deletion changes its folder), a
// tsconfig or package.json newer than it. Anything else is tsc's own incremental business.
// usage: node scripts/build-if-stale.js
import { execFileSync } from "node:child_process";
import { readdirSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUILD_INFO = path.join(ROOT, "dist", ".tsbuildinfo");

function newestMtime(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

function isStale() {
  let built;
  try {
    built = statSync(BUILD_INFO).mtimeMs;
  } catch {
    return true;
  }
  const inputs = ["src", "tsconfig.json", "tsconfig.build.json", "package.json"].map((name) =>
    path.join(ROOT, name),
  );
  return inputs.some((input) => newestMtime(input) > built);
}

if (isStale()) {
  const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
  execFileSync(process.execPath, [tsc, "-p", path.join(ROOT, "tsconfig.build.json")], { stdio: "inherit" });
  execFileSync(process.execPath, [path.join(ROOT, "scripts", "prune-dist.js")], { stdio: "inherit" });
  // tsc leaves its build info alone when nothing changed (a touched file): mark this check as done
  const now = new Date();
  utimesSync(BUILD_INFO, now, now);
}
