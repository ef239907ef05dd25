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
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compatCacheRoot, installVersion, runInstaller } from "./npm-version-installer.js";

/** npm's placeholder `bin/claude.exe` is a script of ~500 bytes; the native binary is hundreds of MB. */
const PLACEHOLDER_MAX_BYTES = 4096;

export function claudeCacheRoot(explicit) {
  return compatCacheRoot(explicit, "RENNET_COMPAT_CLAUDE_CACHE", "claude");
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

async function installOne(root, version) {
  const result = await installVersion({
    root,
    version,
    spec: `@anthropic-ai/claude-code@${version}`,
    usable: (dir) => {
      const found = locateClaude(dir);
      return found.claude !== null && found.version === version;
    },
    missing: `no claude for ${process.platform}-${process.arch} in the installed package`,
  });
  if (result.status === "failed") return { version, claude: null, ...result };
  const { dir, ...rest } = result;
  return { version, claude: locateClaude(dir).claude, ...rest };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await runInstaller({
    name: "install-claude",
    root: claudeCacheRoot,
    install: installOne,
    failed: (version, error) => ({ version, claude: null, status: "failed", error }),
    print: (entry) => console.log(`${entry.version}\t${entry.claude}\t${entry.status}`),
  });
