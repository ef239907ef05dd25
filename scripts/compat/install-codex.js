#!/usr/bin/env node
// Installs released @openai/codex versions side by side, outside the repository, for compatibility checks.
//
//   node scripts/compat/install-codex.js 0.72.0 0.100.0 0.171.0          one line per version: version and path
//   node scripts/compat/install-codex.js --json 0.72.0 0.171.0           one JSON object per line
//   node scripts/compat/install-codex.js --cache DIR 0.72.0              cache root (default below)
//
// Cache root: --cache, else $RENNET_COMPAT_CACHE, else ~/.cache/rennet-compat/codex. Each version goes to
// <root>/<version> through `npm install --prefix`, into a temporary sibling first and renamed when complete, so
// an interrupted install never looks installed. A version whose native binary is already there is skipped.
//
// Packaging differs by version: up to 0.98 the package itself ships `vendor/<triple>/codex/codex` for every
// platform; later versions ship only the launcher and take the native binary from the optional dependency
// `@openai/codex-<platform>` (an alias of `@openai/codex@<version>-<platform>`). Neither has an install script,
// so `--ignore-scripts` is safe, but optional dependencies must not be omitted.
//
// JSON line: {version, codex, native, status: "cached"|"installed"|"failed", installMs?, error?}
// `codex` is the npm launcher (node_modules/.bin/codex → bin/codex.js), what a user's PATH holds; `native` is the
// binary the launcher spawns. Exit code 1 when any version failed.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const VERSION_PATTERN = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

function usage(message) {
  if (message) console.error(`install-codex: ${message}`);
  console.error("usage: node scripts/compat/install-codex.js [--json] [--cache DIR] VERSION...");
  process.exit(2);
}

function parseArgs(argv) {
  const options = { json: false, cache: null, versions: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === "--json") options.json = true;
    else if (arg === "--cache") {
      const value = argv[i + 1];
      if (value === undefined) usage("--cache needs a directory");
      options.cache = value;
      i += 1;
    } else if (arg === "-h" || arg === "--help") usage();
    else if (VERSION_PATTERN.test(arg)) options.versions.push(arg);
    else usage(`not a version: ${arg}`);
  }
  if (options.versions.length === 0) usage("no version given");
  return options;
}

export function cacheRoot(explicit) {
  if (explicit) return path.resolve(explicit);
  const fromEnv = process.env.RENNET_COMPAT_CACHE;
  if (fromEnv) return path.resolve(fromEnv);
  return path.join(os.homedir(), ".cache", "rennet-compat", "codex");
}

function targetTriple() {
  const table = {
    "linux-x64": "x86_64-unknown-linux-musl",
    "linux-arm64": "aarch64-unknown-linux-musl",
    "android-x64": "x86_64-unknown-linux-musl",
    "android-arm64": "aarch64-unknown-linux-musl",
    "darwin-x64": "x86_64-apple-darwin",
    "darwin-arm64": "aarch64-apple-darwin",
    "win32-x64": "x86_64-pc-windows-msvc",
    "win32-arm64": "aarch64-pc-windows-msvc",
  };
  const triple = table[`${process.platform}-${process.arch}`];
  if (!triple) throw new Error(`unsupported platform ${process.platform}-${process.arch}`);
  return triple;
}

function installedVersion(modules) {
  try {
    const pkg = JSON.parse(readFileSync(path.join(modules, "@openai", "codex", "package.json"), "utf8"));
    return typeof pkg.version === "string" ? pkg.version : null;
  } catch {
    return null;
  }
}

/** The paths inside one version directory; `native` is null when no binary is found. */
export function locate(versionDir) {
  const modules = path.join(versionDir, "node_modules");
  const exe = process.platform === "win32" ? "codex.exe" : "codex";
  const triple = targetTriple();
  const launcher = path.join(modules, ".bin", process.platform === "win32" ? "codex.cmd" : "codex");
  const platformPackage = `codex-${process.platform}-${process.arch}`;
  // The launcher looks in the platform package first, then in the main package; the binary's folder inside
  // vendor/<triple> is `codex/` in older versions and `bin/` in newer ones.
  const candidates = [];
  for (const pkg of [platformPackage, "codex"]) {
    for (const sub of ["bin", "codex"]) {
      candidates.push(path.join(modules, "@openai", pkg, "vendor", triple, sub, exe));
    }
  }
  const native = candidates.find((candidate) => existsSync(candidate)) ?? null;
  return { launcher, native, version: installedVersion(modules) };
}

function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk) => {
      output = (output + chunk.toString("utf8")).slice(-8000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (error) => resolve({ code: -1, output: `${output}\n${error.message}` }));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

async function removeStaleTemps(root, version) {
  const entries = await readdir(root).catch(() => []);
  for (const entry of entries) {
    if (entry.startsWith(`.${version}.tmp-`)) {
      await rm(path.join(root, entry), { recursive: true, force: true });
    }
  }
}

async function installOne(root, version) {
  const dir = path.join(root, version);
  const found = locate(dir);
  if (found.native && found.version === version && existsSync(found.launcher)) {
    return { version, codex: found.launcher, native: found.native, status: "cached" };
  }
  await mkdir(root, { recursive: true });
  await removeStaleTemps(root, version);
  const temp = path.join(root, `.${version}.tmp-${process.pid}`);
  await mkdir(temp, { recursive: true });
  const started = Date.now();
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = await run(
    npm,
    [
      "install",
      "--prefix",
      temp,
      "--no-save",
      "--no-package-lock",
      "--ignore-scripts",
      "--include=optional",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `@openai/codex@${version}`,
    ],
    { cwd: temp, shell: process.platform === "win32" },
  );
  const installMs = Date.now() - started;
  const installed = locate(temp);
  if (result.code !== 0 || !installed.native || installed.version !== version) {
    await rm(temp, { recursive: true, force: true });
    const reason =
      result.code !== 0
        ? `npm exited with ${result.code}: ${result.output.trim().split("\n").slice(-5).join(" | ")}`
        : `no native codex binary for ${process.platform}-${process.arch} in the installed package`;
    return { version, codex: null, native: null, status: "failed", installMs, error: reason };
  }
  await rm(dir, { recursive: true, force: true });
  await rename(temp, dir);
  const final = locate(dir);
  return { version, codex: final.launcher, native: final.native, status: "installed", installMs };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const root = cacheRoot(options.cache);
  let failed = false;
  for (const version of options.versions) {
    let entry;
    try {
      entry = await installOne(root, version);
    } catch (error) {
      entry = {
        version,
        codex: null,
        native: null,
        status: "failed",
        error: error instanceof Error ? error.message : String(error),
      };
    }
    if (entry.status === "failed") failed = true;
    if (options.json) {
      console.log(JSON.stringify(entry));
    } else if (entry.status === "failed") {
      console.error(`${version}\tFAILED\t${entry.error}`);
    } else {
      const note =
        entry.status === "installed" ? `installed in ${(entry.installMs / 1000).toFixed(1)} s` : "cached";
      console.log(`${version}\t${entry.codex}`);
      console.error(`  ${note}; native ${entry.native}`);
    }
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
