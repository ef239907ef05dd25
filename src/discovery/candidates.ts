import path from "node:path";
import { BARE_COMMAND_NOT_FOUND, findBareCommand } from "./bare-command.js";
import { isBareCommand } from "./command-path.js";
import type { CandidateSource, Locus } from "./discovery-types.js";
import type { CandidateDir } from "./candidate-dirs.js";
import type { ExecutableSpec, Inspect } from "./executable-spec.js";
import type { FileInfo, FoundFile, LocusHost } from "./locus-host.js";
import { pathApi, unsearchableDirReason } from "./platform-env.js";
import type { CandidateKind, Rankable } from "./rank.js";
import { isWindowsStorePath } from "./windows-cmd.js";
import { parseWslUncPath } from "./wsl-locus.js";

/** One file that may be the executable, before probing. */
export interface Candidate extends Rankable {
  path: string;
  source: CandidateSource;
  label: string;
  /** What a stat said; null when nothing is there (only possible for the override). */
  info: FileInfo | null;
  /** Why the candidate cannot be probed at all (its `executable` probe fails with it); absent when it can. */
  problem?: string;
}

/** How a file is launched on a platform, from its name. Pure. */
export function candidateKind(file: string, platform: NodeJS.Platform): CandidateKind {
  if (platform !== "win32") return "posix";
  return /\.(cmd|bat)$/i.test(file) ? "windows-cmd" : "windows-exe";
}

/** Where the candidates are looked for and how companions are found. */
export interface CandidateLookup {
  spec: Pick<ExecutableSpec, "companions">;
  platform: NodeJS.Platform;
  arch: string;
  inspect: Inspect;
}

/**
 * Turns scanned files into candidates, in directory order. A file with a companion (see the spec's
 * `companions`, e.g. the native `.exe` behind an npm `.cmd` shim) brings it along as a better-ranked candidate;
 * on Windows `.ps1` shims and Store-packaged files are never candidates. Pure apart from `inspect`.
 */
export async function candidatesFromFound(
  dirs: readonly CandidateDir[],
  found: readonly FoundFile[],
  lookup: CandidateLookup,
): Promise<Candidate[]> {
  const { platform } = lookup;
  const out: Candidate[] = [];
  let order = 0;
  for (const file of found) {
    const dir = dirs[file.patternIndex];
    if (!dir) continue;
    if (platform === "win32" && (isWindowsStorePath(file.path) || /\.ps1$/i.test(file.path))) continue;
    const base = { source: dir.source, label: dir.label, dirIndex: file.patternIndex };
    const companion = await findCompanion(file, lookup);
    if (companion) {
      out.push({
        ...base,
        label: `${dir.label}, ${companion.label}`,
        path: companion.info.path,
        info: companion.info,
        kind: candidateKind(companion.info.path, platform),
        order: order++,
      });
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

/**
 * The first companion (the spec's `companions`, e.g. the native `.exe` behind an npm `.cmd` shim) of the file at
 * `file` (already inspected: `info`) that is a regular file, or null. For a file named outside a searched
 * directory (an override, an explicit path).
 */
export function companionOf(
  file: string,
  info: FileInfo,
  lookup: CandidateLookup,
): Promise<{ info: FileInfo; label: string } | null> {
  return findCompanion(
    { patternIndex: -1, dir: pathApi(lookup.platform).dirname(file), path: file, info },
    lookup,
  );
}

/** The first companion of `file` that is a regular file, or null. */
async function findCompanion(
  file: FoundFile,
  lookup: CandidateLookup,
): Promise<{ info: FileInfo; label: string } | null> {
  const companions = lookup.spec.companions?.(file, lookup.platform, lookup.arch) ?? null;
  if (companions === null || companions.paths.length === 0) return null;
  const infos = await lookup.inspect(companions.paths);
  const info = infos.find((candidate) => candidate?.kind === "file");
  return info ? { info, label: companions.label } : null;
}

/** Scans every candidate directory of a locus for the spec's file names. */
export async function findCandidates(
  host: LocusHost,
  dirs: readonly CandidateDir[],
  spec: Pick<ExecutableSpec, "companions" | "fileNames">,
  arch: string,
): Promise<Candidate[]> {
  const found = await host.find(
    dirs.map((dir) => dir.dir),
    spec.fileNames(host.platform),
  );
  const inspect: Inspect = (paths) => host.inspect(paths);
  return candidatesFromFound(dirs, found, { spec, platform: host.platform, arch, inspect });
}

/**
 * A candidate probed ahead of every other one, labelled `label`. A bare name (`agent`) is the executable of that
 * name in the locus's absolute PATH directories; a relative `value` resolves against `base` (the directory the
 * user ran the command in), never against the repository the probes and the session start in, so the
 * candidate's path is absolute. In a WSL locus `base` must lie in the same distribution; otherwise the
 * candidate fails its `executable` probe, saying so, and nothing is run. A file with a companion (the spec's
 * `companions`, e.g. the native `.exe` behind an npm `.cmd` shim) becomes that companion, as it ranks above the
 * file in a searched directory.
 */
export async function overrideCandidate(
  host: LocusHost,
  value: string,
  label: string,
  lookup: { spec: Pick<ExecutableSpec, "companions">; arch: string },
  base: string = process.cwd(),
): Promise<Candidate> {
  const resolved = isBareCommand(value)
    ? await bareOverridePath(host, value)
    : resolveOverridePath(value, host.platform, host.locus, base);
  const file = resolved.type === "ok" ? resolved.path : value;
  const [info] = resolved.type === "ok" ? await host.inspect([file]) : [null];
  const companion =
    info?.kind === "file"
      ? await companionOf(file, info, {
          ...lookup,
          platform: host.platform,
          inspect: (paths) => host.inspect(paths),
        })
      : null;
  if (companion) {
    const { path: companionPath } = companion.info;
    return {
      path: companionPath,
      source: "env-override",
      label: `${label}, ${companion.label}`,
      info: companion.info,
      kind: candidateKind(companionPath, host.platform),
      dirIndex: -1,
      order: 0,
    };
  }
  return {
    path: file,
    source: "env-override",
    label,
    info: info ?? null,
    ...(resolved.type === "unresolvable" ? { problem: resolved.reason } : {}),
    kind: candidateKind(file, host.platform),
    dirIndex: -1,
    order: 0,
  };
}

/** A bare name (`agent`) as an override: the executable of that name in the locus's absolute PATH directories. */
async function bareOverridePath(
  host: LocusHost,
  name: string,
): Promise<{ type: "ok"; path: string } | { type: "unresolvable"; reason: string }> {
  const inspect = async (path: string): Promise<FileInfo | null> => (await host.inspect([path]))[0] ?? null;
  const found = await findBareCommand(name, host.env, host.platform, inspect);
  return found === null
    ? { type: "unresolvable", reason: BARE_COMMAND_NOT_FOUND }
    : { type: "ok", path: found };
}

/**
 * The absolute path of an override `value` given in directory `base` (for a WSL locus, `base` is a
 * `\\wsl.localhost\<distro>\…` path and the result a Linux path); an absolute value is kept as given. Pure.
 */
export function resolveOverridePath(
  value: string,
  platform: NodeJS.Platform,
  locus: Locus,
  base: string,
): { type: "ok"; path: string } | { type: "unresolvable"; reason: string } {
  if (locus.type === "wsl") {
    if (value.startsWith("/")) return { type: "ok", path: value };
    const inside = parseWslUncPath(base);
    if (inside?.distro.toLowerCase() === locus.distro.toLowerCase())
      return { type: "ok", path: path.posix.resolve(inside.linuxPath, value) };
    return {
      type: "unresolvable",
      reason:
        `is a relative path, and the current directory (${base}) is not in WSL distribution ` +
        `"${locus.distro}": give an absolute path inside the distribution`,
    };
  }
  if (value.length > 0 && unsearchableDirReason(value, platform) === null) return { type: "ok", path: value };
  return { type: "ok", path: pathApi(platform).resolve(base, value) };
}
