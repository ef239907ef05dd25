#!/usr/bin/env node
// Installs released @anthropic-ai/claude-code versions side by side, outside the repository, for compatibility
// checks.
//
//   node scripts/compat/install-claude.js 2.0.77 2.1.112            one line per version: version and path
//   node scripts/compat/install-claude.js --json 2.0.77              one JSON object per line
//   node scripts/compat/install-claude.js --cache DIR 2.0.77         cache root (default below)
//
// Cache root: --cache, else $RENNET_COMPAT_CLAUDE_CACHE, else ~/.cache/rennet-compat/claude. Each version goes to
// <root>/<version> through `npm install --prefix`, into a temporary sibling first and renamed when complete, so
// an interrupted install never looks installed. A version that is already there is not installed again.
//
// Packaging differs by version: up to 2.1.112 the package's bin is `cli.js`, run by node (npm's
// node_modules/.bin/claude links to it, as a user's global install does); from 2.1.113 the bin is
// `bin/claude.exe`, a placeholder that the package's postinstall replaces with the native binary of the
// platform package `@anthropic-ai/claude-code-<platform>-<arch>`. Scripts are not run here: the platform
// package's binary is the same file the postinstall would link.
//
// JSON line: {version, claude, status: "cached"|"installed"|"failed", installMs?, error?}; `claude` is what
// RENNET_TEST_CLAUDE takes. Exit code 1 when any version failed.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const VERSION_PATTERN = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
/** npm's placeholder `bin/claude.exe` is a script of ~500 bytes; the native binary is hundreds of MB. */
const PLACEHOLDER_MAX_BYTES = 4096;

function usage(message) {
  if (message) console.error(`install-claude: ${message}`);
  console.error("usage: node scripts/compat/install-claude.js [--json] [--cache DIR] VERSION...");
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

export function claudeCacheRoot(explicit) {
  if (explicit) return path.resolve(explicit);
  const fromEnv = process.env.RENNET_COMPAT_CLAUDE_CACHE;
  if (fromEnv) return path.resolve(fromEnv);
  return path.join(os.homedir(), ".cache", "rennet-compat", "claude");
}

function installedVersion(pkg) {
  try {
    return JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8")).version ?? null;
  } catch {
    return null;
  }
}

/** The claude to test inside one version directory (null when none is usable) and the installed version. */
export function locateClaude(versionDir) {
  const modules = path.join(versionDir, "node_modules");
  const pkg = path.join(modules, "@anthropic-ai", "claude-code");
  const version = installedVersion(pkg);
  const win = process.platform === "win32";
  if (existsSync(path.join(pkg, "cli.js"))) {
    const launcher = path.join(modules, ".bin", win ? "claude.cmd" : "claude");
    return { claude: existsSync(launcher) ? launcher : null, version };
  }
  const exe = path.join(pkg, "bin", "claude.exe");
  if (existsSync(exe) && statSync(exe).size > PLACEHOLDER_MAX_BYTES) return { claude: exe, version };
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const platform = win ? "win32" : process.platform === "darwin" ? "darwin" : "linux";
  const native = path.join(
    modules,
    "@anthropic-ai",
    `claude-code-${platform}-${arch}`,
    win ? "claude.exe" : "claude",
  );
  return { claude: existsSync(native) ? native : null, version };
}

function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk) => (output = (output + chunk.toString("utf8")).slice(-8000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (error) => resolve({ code: -1, output: `${output}\n${error.message}` }));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

async function installOne(root, version) {
  const dir = path.join(root, version);
  const found = locateClaude(dir);
  if (found.claude && found.version === version) return { version, claude: found.claude, status: "cached" };
  await mkdir(root, { recursive: true });
  for (const entry of await readdir(root).catch(() => []))
    if (entry.startsWith(`.${version}.tmp-`))
      await rm(path.join(root, entry), { recursive: true, force: true });
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
      "--ignore-scripts",
      "--include=optional",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `@anthropic-ai/claude-code@${version}`,
    ],
    { cwd: temp, shell: process.platform === "win32" },
  );
  const installMs = Date.now() - started;
  const installed = locateClaude(temp);
  if (result.code !== 0 || !installed.claude || installed.version !== version) {
    await rm(temp, { recursive: true, force: true });
    const reason =
      result.code !== 0
        ? `npm exited with ${result.code}: ${result.output.trim().split("\n").slice(-5).join(" | ")}`
        : `no claude for ${process.platform}-${process.arch} in the installed package`;
    return { version, claude: null, status: "failed", installMs, error: reason };
  }
  await rm(dir, { recursive: true, force: true });
  await rename(temp, dir);
  return { version, claude: locateClaude(dir).claude, status: "installed", installMs };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const root = claudeCacheRoot(options.cache);
  let failed = false;
  for (const version of options.versions) {
    const entry = await installOne(root, version).catch((error) => ({
      version,
      claude: null,
      status: "failed",
      error: error instanceof Error ? error.message : String(error),
    }));
    if (entry.status === "failed") failed = true;
    if (options.json) console.log(JSON.stringify(entry));
    else if (entry.status === "failed") console.error(`${version}\tFAILED\t${entry.error}`);
    else console.log(`${version}\t${entry.claude}\t${entry.status}`);
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
