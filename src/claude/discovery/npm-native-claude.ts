import type { Inspect, PreferredLaunch } from "../../discovery/executable-spec.js";
import type { FileInfo } from "../../discovery/locus-host.js";
import { pathApi } from "../../discovery/platform-env.js";

/**
 * npm's `bin/claude.exe` is a placeholder of about 500 bytes (a script that prints "claude native binary not
 * installed" and exits 1) until the package's postinstall links the platform package's binary over it; a real
 * binary is hundreds of megabytes.
 */
export const NPM_STUB_MAX_BYTES = 4096;

/**
 * The package root (`…/node_modules/@anthropic-ai/claude-code`) when `realpath` is the npm package's
 * `bin/claude.exe` (2.1.113 and later), else null. Pure.
 */
export function npmClaudePackageRoot(realpath: string, platform: NodeJS.Platform): string | null {
  const p = pathApi(platform);
  if (p.basename(realpath) !== "claude.exe") return null;
  const bin = p.dirname(realpath);
  const root = p.dirname(bin);
  const scope = p.dirname(root);
  return p.basename(bin) === "bin" &&
    p.basename(root) === "claude-code" &&
    p.basename(scope) === "@anthropic-ai"
    ? root
    : null;
}

/**
 * Where the package's postinstall looks for the platform package's binary, in its order: beside the package in
 * the enclosing `node_modules`, then in the package's own `node_modules`; the glibc package before the musl one
 * on Linux (npm installs only the one that matches). Pure.
 */
export function platformBinaryCandidates(
  packageRoot: string,
  platform: NodeJS.Platform,
  arch: string,
): string[] {
  const p = pathApi(platform);
  const keys = platform === "linux" ? [`linux-${arch}`, `linux-${arch}-musl`] : [`${platform}-${arch}`];
  const exe = platform === "win32" ? "claude.exe" : "claude";
  const nodeModules = p.dirname(p.dirname(packageRoot));
  return keys.flatMap((key) => [
    p.join(nodeModules, "@anthropic-ai", `claude-code-${key}`, exe),
    p.join(packageRoot, "node_modules", "@anthropic-ai", `claude-code-${key}`, exe),
  ]);
}

/**
 * The platform package's binary to start instead of npm's placeholder `bin/claude.exe` (an install whose
 * postinstall did not run: `--ignore-scripts`, an `allowScripts` policy), when the file is that placeholder and
 * the binary is there; else null. A full `bin/claude.exe` is started as it is.
 */
export async function npmStubPreferredLaunch(
  info: FileInfo,
  inspect: Inspect,
  platform: NodeJS.Platform,
  arch: string,
): Promise<PreferredLaunch | null> {
  if (info.size >= NPM_STUB_MAX_BYTES) return null;
  const root = npmClaudePackageRoot(info.realpath, platform);
  if (root === null) return null;
  const binaries = await inspect(platformBinaryCandidates(root, platform, arch));
  const binary = binaries.find(
    (file) => file?.kind === "file" && file.executable && file.size >= NPM_STUB_MAX_BYTES,
  );
  return binary ? { binary, env: {} } : null;
}
