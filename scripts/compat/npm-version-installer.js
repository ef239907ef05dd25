// What both compat installers (install-codex.js, install-claude.js) share: their command line, their cache root,
// and one version's install. A version goes to <root>/<version> through `npm install --prefix`, into a temporary
// sibling first and renamed when complete, so an interrupted install never looks installed; a version that is
// already there and usable is not installed again.
import { spawn } from "node:child_process";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const VERSION_PATTERN = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** `[--json] [--cache DIR] VERSION...` of the installer `name`; exits 2 with the usage on anything else. */
export function parseInstallerArgs(name, argv) {
  const usage = (message) => {
    if (message) console.error(`${name}: ${message}`);
    console.error(`usage: node scripts/compat/${name}.js [--json] [--cache DIR] VERSION...`);
    process.exit(2);
  };
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

/** The cache root: `explicit`, else `$<variable>`, else ~/.cache/rennet-compat/<harness>. */
export function compatCacheRoot(explicit, variable, harness) {
  if (explicit) return path.resolve(explicit);
  const fromEnv = process.env[variable];
  if (fromEnv) return path.resolve(fromEnv);
  return path.join(os.homedir(), ".cache", "rennet-compat", harness);
}

/** Runs a command; resolves with its exit code and the last 8000 characters of its output. Never rejects. */
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
  for (const entry of await readdir(root).catch(() => []))
    if (entry.startsWith(`.${version}.tmp-`))
      await rm(path.join(root, entry), { recursive: true, force: true });
}

/**
 * Installs `spec` (e.g. `@openai/codex@0.72.0`) as `version` under `root`, unless `usable(<root>/<version>)`
 * already holds. `npmFlags` go before the spec; `missing` says what is wrong when npm succeeded but the result is
 * not `usable`. Resolves with `{status: "cached"|"installed", dir, installMs?}` or
 * `{status: "failed", installMs, error}`.
 */
export async function installVersion({ root, version, spec, npmFlags = [], usable, missing }) {
  const dir = path.join(root, version);
  if (usable(dir)) return { status: "cached", dir };
  await mkdir(root, { recursive: true });
  await removeStaleTemps(root, version);
  const temp = path.join(root, `.${version}.tmp-${process.pid}`);
  await mkdir(temp, { recursive: true });
  const started = Date.now();
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = ["install", "--prefix", temp, ...npmFlags, "--ignore-scripts", "--include=optional"];
  const result = await run(npm, [...args, "--no-audit", "--no-fund", "--loglevel=error", spec], {
    cwd: temp,
    shell: process.platform === "win32",
  });
  const installMs = Date.now() - started;
  if (result.code !== 0 || !usable(temp)) {
    await rm(temp, { recursive: true, force: true });
    const error =
      result.code !== 0
        ? `npm exited with ${result.code}: ${result.output.trim().split("\n").slice(-5).join(" | ")}`
        : missing;
    return { status: "failed", installMs, error };
  }
  await rm(dir, { recursive: true, force: true });
  await rename(temp, dir);
  return { status: "installed", dir, installMs };
}

/**
 * The installer's main: each version of the command line through `install(root, version)` (which resolves with
 * an entry `{version, status, …}`; a rejection becomes `failed(version, message)`), one JSON line per entry with
 * `--json`, else `print(entry)` (failures to stderr). Exit code 1 when any version failed.
 */
export async function runInstaller({ name, root, install, failed, print }) {
  const options = parseInstallerArgs(name, process.argv.slice(2));
  const cacheDir = root(options.cache);
  let anyFailed = false;
  for (const version of options.versions) {
    const entry = await install(cacheDir, version).catch((error) =>
      failed(version, error instanceof Error ? error.message : String(error)),
    );
    if (entry.status === "failed") anyFailed = true;
    if (options.json) console.log(JSON.stringify(entry));
    else if (entry.status === "failed") console.error(`${version}\tFAILED\t${entry.error}`);
    else print(entry);
  }
  process.exitCode = anyFailed ? 1 : 0;
}
