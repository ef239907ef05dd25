/**
 * npm's global Windows install of Claude Code as discovery finds it: `claude.cmd` and `claude.ps1` in the npm
 * folder, the package's native `claude.exe` below it. Shared by the Claude Code discovery test and the neutral
 * engine's second-CLI test, which prove the same ranking for the real spec and for a spec built from the
 * engine's interface alone.
 */
import { candidatesFromFound } from "../../src/discovery/candidates.js";
import type { ExecutableSpec } from "../../src/discovery/executable-spec.js";
import type { FoundFile } from "../../src/discovery/locus-host.js";
import { rankCandidates } from "../../src/discovery/rank.js";
import { fakeFileInfo } from "./file-info.js";

export const NPM_DIR = "C:\\Users\\bob\\AppData\\Roaming\\npm";
export const NPM_CLAUDE_EXE = `${NPM_DIR}\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe`;

/**
 * The shims found in {@link NPM_DIR} and the candidates `spec` ranks from them on win32 x64, as
 * `[path, kind, label]`; the host reports {@link NPM_CLAUDE_EXE} as a file of `exeSize` bytes and nothing else.
 */
export async function rankNpmClaudeShims(
  spec: Pick<ExecutableSpec, "companions" | "fileNames">,
  exeSize: number,
): Promise<{ found: FoundFile[]; ranked: [string, string, string][] }> {
  const file = (p: string) => fakeFileInfo(p, { size: exeSize });
  const found: FoundFile[] = [
    { patternIndex: 0, dir: NPM_DIR, path: `${NPM_DIR}\\claude.cmd`, info: file(`${NPM_DIR}\\claude.cmd`) },
    { patternIndex: 0, dir: NPM_DIR, path: `${NPM_DIR}\\claude.ps1`, info: file(`${NPM_DIR}\\claude.ps1`) },
  ];
  const candidates = await candidatesFromFound(
    [{ dir: NPM_DIR, source: "known-location", label: "npm global" }],
    found,
    {
      spec,
      platform: "win32",
      arch: "x64",
      inspect: async (paths) => paths.map((p) => (p === NPM_CLAUDE_EXE ? file(p) : null)),
    },
  );
  return { found, ranked: rankCandidates(candidates).map((c) => [c.path, c.kind, c.label]) };
}
