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
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compatCacheRoot, installVersion, runInstaller } from "./npm-version-installer.js";

export function cacheRoot(explicit) {
  return compatCacheRoot(explicit, "RENNET_COMPAT_CACHE", "codex");
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

async function installOne(root, version) {
  const result = await installVersion({
    root,
    version,
    spec: `@openai/codex@${version}`,
    npmFlags: ["--no-save", "--no-package-lock"],
    usable: (dir) => {
      const found = locate(dir);
      return found.native !== null && found.version === version && existsSync(found.launcher);
    },
    missing: `no native codex binary for ${process.platform}-${process.arch} in the installed package`,
  });
  if (result.status === "failed") return { version, codex: null, native: null, ...result };
  const { dir, ...rest } = result;
  const final = locate(dir);
  return { version, codex: final.launcher, native: final.native, ...rest };
}

function print(entry) {
  const note =
    entry.status === "installed" ? `installed in ${(entry.installMs / 1000).toFixed(1)} s` : "cached";
  console.log(`${entry.version}\t${entry.codex}`);
  console.error(`  ${note}; native ${entry.native}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await runInstaller({
    name: "install-codex",
    root: cacheRoot,
    install: installOne,
    failed: (version, error) => ({ version, codex: null, native: null, status: "failed", error }),
    print,
  });
