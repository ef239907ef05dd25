import type { Inspect, PreferredLaunch } from "../../discovery/executable-spec.js";
import type { FileInfo, ScriptMarker } from "../../discovery/locus-host.js";
import { isNodeShebang } from "../../discovery/node-launcher.js";
import { pathApi } from "../../discovery/platform-env.js";

/** The Rust target triples of npm's platform packages (`@openai/codex-<platform>-<arch>`), POSIX only. */
const TARGET_TRIPLES = new Map<string, string>([
  ["linux-x64", "x86_64-unknown-linux-musl"],
  ["linux-arm64", "aarch64-unknown-linux-musl"],
  ["darwin-x64", "x86_64-apple-darwin"],
  ["darwin-arm64", "aarch64-apple-darwin"],
]);

/**
 * The package root (`…/node_modules/@openai/codex`) when `realpath` is npm's launcher script
 * `@openai/codex/bin/codex.js`, else null. Pure.
 */
export function npmCodexPackageRoot(realpath: string, platform: NodeJS.Platform): string | null {
  if (platform === "win32") return null;
  const p = pathApi(platform);
  if (p.basename(realpath) !== "codex.js") return null;
  const bin = p.dirname(realpath);
  const root = p.dirname(bin);
  const scope = p.dirname(root);
  return p.basename(bin) === "bin" && p.basename(root) === "codex" && p.basename(scope) === "@openai"
    ? root
    : null;
}

/**
 * Where npm's launcher looks for its native binary, in its own order: the platform package resolved from the
 * package (its own `node_modules`, then every ancestor's `node_modules`), then the package's `vendor/`. Pure.
 */
export function npmNativeBinaryCandidates(
  packageRoot: string,
  platform: NodeJS.Platform,
  arch: string,
): string[] {
  const triple = TARGET_TRIPLES.get(`${platform}-${arch}`);
  if (triple === undefined) return [];
  const p = pathApi(platform);
  const platformPackage = `codex-${platform}-${arch}`;
  const binary = (packageDir: string): string => p.join(packageDir, "vendor", triple, "bin", "codex");
  const found = [binary(p.join(packageRoot, "node_modules", "@openai", platformPackage))];
  for (let dir = p.dirname(packageRoot); ; dir = p.dirname(dir)) {
    if (p.basename(dir) === "node_modules") found.push(binary(p.join(dir, "@openai", platformPackage)));
    else if (p.basename(p.dirname(dir)) !== "node_modules")
      found.push(binary(p.join(dir, "node_modules", "@openai", platformPackage)));
    if (p.dirname(dir) === dir) break;
  }
  found.push(binary(packageRoot));
  return [...new Set(found)];
}

/** The variables npm's launcher gives the native binary (codex uses them for its update hints). */
export function npmManagedEnv(packageRoot: string): Record<string, string> {
  return { CODEX_MANAGED_PACKAGE_ROOT: packageRoot, CODEX_MANAGED_BY_NPM: "1" };
}

/**
 * The one script whose text discovery reads: npm's launcher (`…/@openai/codex/bin/codex.js`, by its real path),
 * marked when it names `codex-path`. The launchers of codex 0.133–0.137 also put the package's bundled tools
 * (`codex-path`, with `rg`) first on PATH, so starting the native binary directly would drop them: a marked
 * launcher is kept. Any other launcher only sets {@link npmManagedEnv} and starts the binary.
 */
export const NPM_LAUNCHER_MARKER: ScriptMarker = {
  realpathSuffix: "/@openai/codex/bin/codex.js",
  needle: "codex-path",
};

/** npm's launcher script and the native binary it would start, when both are there. */
export interface NpmNative {
  packageRoot: string;
  binary: FileInfo;
}

/**
 * The native binary to start instead of the file `info` describes, when that file is npm's launcher script, the
 * launcher only sets {@link npmManagedEnv} (`info.scriptMarked` is false, see {@link NPM_LAUNCHER_MARKER}) and one of
 * {@link npmNativeBinaryCandidates} is an executable file (looked up with `inspect`, in the file's own locus);
 * else null.
 */
export async function findNpmNative(
  info: FileInfo,
  inspect: Inspect,
  platform: NodeJS.Platform,
  arch: string = process.arch,
): Promise<NpmNative | null> {
  if (!isNodeShebang(info.shebang)) return null;
  const packageRoot = npmCodexPackageRoot(info.realpath, platform);
  if (packageRoot === null) return null;
  // a launcher that also puts its bundled tools on PATH is not skipped
  if (info.scriptMarked) return null;
  const binaries = await inspect(npmNativeBinaryCandidates(packageRoot, platform, arch));
  const binary = binaries.find((file) => file?.kind === "file" && file.executable);
  return binary ? { packageRoot, binary } : null;
}

/** {@link findNpmNative} as discovery's preferred launch: the binary, with the variables the launcher sets. */
export async function npmNativePreferredLaunch(
  info: FileInfo,
  inspect: Inspect,
  platform: NodeJS.Platform,
  arch: string,
): Promise<PreferredLaunch | null> {
  const native = await findNpmNative(info, inspect, platform, arch);
  return native ? { binary: native.binary, env: npmManagedEnv(native.packageRoot) } : null;
}
