import type { FileInfo } from "./locus-host.js";
import { pathApi } from "./platform-env.js";

/** Whether a `#!` line runs the script with node (`#!/usr/bin/env node`, `#!/usr/bin/env -S node …`, `#!/…/node`). Pure. */
export function isNodeShebang(shebang: string | null): boolean {
  if (!shebang) return false;
  return /^#!\s*\S*\/env\s+(?:-S\s+)?node(?:\s|$)/.test(shebang) || /^#!\s*\S*\/node(?:\s|$)/.test(shebang);
}

/** The `node` executable beside a found script (the asdf/nvm/fnm/mise install's `bin/node`). Pure. */
export function siblingNodePath(file: string, platform: NodeJS.Platform): string {
  const p = pathApi(platform);
  return p.join(p.dirname(file), platform === "win32" ? "node.exe" : "node");
}

/**
 * Whether a file is a version-manager shim that picks a version per directory (asdf, mise, Volta, proto…): its
 * probe result then depends on the working directory, so the cache key includes it. Pure.
 */
export function isDirectoryDependentShim(info: FileInfo, platform: NodeJS.Platform): boolean {
  const p = pathApi(platform);
  const segments = info.path.split(/[\\/]/);
  if (segments.includes("shims")) return true;
  const target = p
    .basename(info.realpath)
    .toLowerCase()
    .replace(/\.exe$/, "");
  return ["mise", "rtx", "volta-shim", "asdf", "proto-shim", "proto"].includes(target);
}
