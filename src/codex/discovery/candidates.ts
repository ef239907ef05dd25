import type { CandidateSource } from "../../discovery/discovery-types.js";
import type { CandidateDir } from "./candidate-dirs.js";
import type { FileInfo, FoundFile, LocusHost } from "../../discovery/locus-host.js";
import { pathApi } from "../../discovery/platform-env.js";
import type { CandidateKind, Rankable } from "../../discovery/rank.js";
import { isWindowsStorePath } from "../../discovery/windows-cmd.js";
import { npmVendorExePaths, WINDOWS_CODEX_NAMES } from "../launch/codex-files.js";

/** One file that may be Codex, before probing. */
export interface Candidate extends Rankable {
  path: string;
  source: CandidateSource;
  label: string;
  /** What a stat said; null when nothing is there (only possible for the override). */
  info: FileInfo | null;
}

/** The file names looked for on a platform. */
export function codexFileNames(platform: NodeJS.Platform): readonly string[] {
  return platform === "win32" ? WINDOWS_CODEX_NAMES : ["codex"];
}

/** How a file is launched on a platform, from its name. Pure. */
export function candidateKind(file: string, platform: NodeJS.Platform): CandidateKind {
  if (platform !== "win32") return "posix";
  return /\.(cmd|bat)$/i.test(file) ? "windows-cmd" : "windows-exe";
}

/**
 * Turns scanned files into candidates, in directory order. On Windows a `codex.cmd` from npm brings along the
 * package's native `codex.exe` (found in its vendor folder) as a better-ranked candidate; `.ps1` shims and
 * Store-packaged files are never candidates. Pure apart from `inspectVendor`.
 */
export async function candidatesFromFound(
  dirs: readonly CandidateDir[],
  found: readonly FoundFile[],
  platform: NodeJS.Platform,
  inspectVendor: (paths: string[]) => Promise<(FileInfo | null)[]>,
  arch: string,
): Promise<Candidate[]> {
  const out: Candidate[] = [];
  let order = 0;
  for (const file of found) {
    const dir = dirs[file.patternIndex];
    if (!dir) continue;
    if (platform === "win32" && (isWindowsStorePath(file.path) || /\.ps1$/i.test(file.path))) continue;
    const base = { source: dir.source, label: dir.label, dirIndex: file.patternIndex };
    if (platform === "win32" && /\.cmd$/i.test(file.path)) {
      const vendorPaths = npmVendorExePaths(file.dir, arch);
      const infos = await inspectVendor(vendorPaths);
      const index = infos.findIndex((info) => info?.kind === "file");
      const vendor = index >= 0 ? infos[index] : null;
      if (vendor) {
        out.push({
          ...base,
          label: `${dir.label}, npm package's codex.exe`,
          path: vendor.path,
          info: vendor,
          kind: "windows-exe",
          order: order++,
        });
      }
    }
    out.push({
      ...base,
      path: file.path,
      info: file.info,
      kind: candidateKind(file.path, platform),
      order: order++,
    });
  }
  return out;
}

/** Scans every candidate directory of a locus. */
export async function findCandidates(
  host: LocusHost,
  dirs: readonly CandidateDir[],
  arch: string,
): Promise<Candidate[]> {
  const found = await host.find(
    dirs.map((dir) => dir.dir),
    codexFileNames(host.platform),
  );
  return candidatesFromFound(dirs, found, host.platform, (paths) => host.inspect(paths), arch);
}

/** A candidate for `RENNET_CODEX_BIN` (relative values resolve against `cwd`). */
export async function overrideCandidate(
  host: LocusHost,
  value: string,
  cwd: string | undefined,
): Promise<Candidate> {
  const p = pathApi(host.platform);
  const file = p.isAbsolute(value) || cwd === undefined ? value : p.resolve(cwd, value);
  const [info] = await host.inspect([file]);
  return {
    path: file,
    source: "env-override",
    label: "RENNET_CODEX_BIN",
    info: info ?? null,
    kind: candidateKind(file, host.platform),
    dirIndex: -1,
    order: 0,
  };
}
