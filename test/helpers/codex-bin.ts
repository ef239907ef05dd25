import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The pinned devDependency's launcher (`node_modules/.bin/codex`). */
export const PINNED_CODEX_BIN = path.join(
  REPO_ROOT,
  "node_modules",
  ".bin",
  process.platform === "win32" ? "codex.cmd" : "codex",
);

export function pinnedCodexAvailable(): boolean {
  return existsSync(PINNED_CODEX_BIN);
}
