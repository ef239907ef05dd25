// Consumer install: `npm pack` the repository (the build is already done), `npm install <tgz> --omit=dev` into
// an empty project, then count the packages in its node_modules (rennet-adapters included) and their size on
// disk (allocated blocks, hard links counted once; MB = 10^6 bytes). Uses the npm cache first
// (--prefer-offline); needs the registry only for packages missing from the cache.
import { execFile } from "node:child_process";
import { lstat, mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { figure, goal } from "../figure.js";

const run = promisify(execFile);
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const QUIET = ["--no-audit", "--no-fund", "--loglevel=error"];

/** Every directory under node_modules that is a package (scoped and nested ones included). */
async function packageDirs(nodeModules) {
  const found = [];
  let entries;
  try {
    entries = await readdir(nodeModules, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const dir = path.join(nodeModules, entry.name);
    const dirs = entry.name.startsWith("@")
      ? (await readdir(dir, { withFileTypes: true }))
          .filter((scoped) => scoped.isDirectory())
          .map((scoped) => path.join(dir, scoped.name))
      : [dir];
    for (const pkg of dirs) found.push(pkg, ...(await packageDirs(path.join(pkg, "node_modules"))));
  }
  return found;
}

async function diskBytes(dir, seen = new Set()) {
  const stat = await lstat(dir);
  if (seen.has(stat.ino)) return 0;
  seen.add(stat.ino);
  let total = stat.blocks * 512;
  if (stat.isDirectory()) {
    for (const name of await readdir(dir)) total += await diskBytes(path.join(dir, name), seen);
  }
  return total;
}

export async function consumerInstall(ctx) {
  const dir = await ctx.tempDir("install");
  const { stdout } = await run(
    NPM,
    ["pack", "--ignore-scripts", "--json", "--pack-destination", dir, ...QUIET],
    { cwd: ctx.root, maxBuffer: 64 * 1024 * 1024 },
  );
  const tarball = path.join(dir, JSON.parse(stdout)[0].filename);
  const consumer = path.join(dir, "consumer");
  await mkdir(consumer);
  await writeFile(path.join(consumer, "package.json"), '{ "name": "bench-consumer", "private": true }\n');
  await run(NPM, ["install", tarball, "--omit=dev", "--prefer-offline", ...QUIET], {
    cwd: consumer,
    maxBuffer: 64 * 1024 * 1024,
  });
  const nodeModules = path.join(consumer, "node_modules");
  const packages = await packageDirs(nodeModules);
  const megabytes = (await diskBytes(nodeModules)) / 1e6;
  return [
    figure({
      key: "install.packages",
      label: "consumer install: packages in node_modules",
      unit: "count",
      samples: [packages.length],
      goal: goal("absolute", 15),
      extra: { packages: packages.map((pkg) => path.relative(nodeModules, pkg)).sort() },
    }),
    figure({
      key: "install.size",
      label: "consumer install: node_modules on disk",
      unit: "MB",
      samples: [megabytes],
      goal: goal("absolute", 6),
    }),
  ];
}
