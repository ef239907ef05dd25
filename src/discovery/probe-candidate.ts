import type { Launcher } from "../process/stdio-child.js";
import type { Candidate } from "./candidates.js";
import type { LaunchMode } from "./discovery-types.js";
import type { ProbeOutcome } from "./discovery-report.js";
import { launchSpec, type LaunchOptions, type ResolvedExecutable } from "./executable-launch.js";
import type { ExecutableSpec, Inspect, PreferredLaunch } from "./executable-spec.js";
import type { FileInfo, LocusHost } from "./locus-host.js";
import { isDirectoryDependentShim, isNodeShebang, siblingNodePath } from "./node-launcher.js";
import { withAbsoluteDirs } from "./platform-env.js";
import { cacheKey, type ProbeCache } from "./probe-cache.js";
import {
  abortedResult,
  failedResult,
  passedResult,
  reportBase,
  skippedProbe,
  unsupportedResult,
  type FoundVersion,
  type ProbedCandidate,
  type ReportBase,
} from "./probe-results.js";
import { probeVersion } from "./version-probe.js";

/** Everything one probe needs, built once per discovery (the signal per candidate). */
export interface ProbeContext {
  spec: ExecutableSpec;
  host: LocusHost;
  /** Variables every launch gets (the login-shell PATH); part of the cache key. */
  launchEnv: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** The caller's launcher for the verify step; null for the step's default. */
  launcher: Launcher | null;
  cache: ProbeCache | null;
  /** False to ignore cached results (they are still written). */
  readCache: boolean;
  /** The CPU architecture of the binaries looked for. */
  arch: string;
}

/** One candidate's file facts and the launch modes to try, in order. */
interface ProbePlan {
  candidate: Candidate;
  info: FileInfo;
  base: ReportBase;
  preferred: PreferredLaunch | null;
  modes: LaunchMode[];
  executable: ProbeOutcome;
}

/**
 * Runs the probes on one candidate: executable (a stat), the version arguments print a supported version, then
 * the spec's verify step. The spec's preferred launch is tried first, and a node script that cannot start
 * directly is retried through the `node` beside it. A pass is cached by the file's identity and launch
 * environment; a cached pass skips every probe.
 */
export async function probeCandidate(candidate: Candidate, ctx: ProbeContext): Promise<ProbedCandidate> {
  const base = reportBase(candidate);
  const info = candidate.info;
  const notExecutable = candidate.problem ?? executableProblem(info, ctx.host.platform);
  if (notExecutable !== null || !info) {
    const reason = notExecutable ?? "not found";
    const probes: ProbeOutcome[] = [
      { probe: "executable", result: "fail", ms: 0, reason },
      ...laterProbes(ctx.spec).map(skippedProbe),
    ];
    return failedResult(base, probes, `executable: ${reason}`);
  }
  const inspect: Inspect = (paths) => ctx.host.inspect(paths);
  const { spec, host } = ctx;
  const preferred = (await spec.preferredLaunch?.(info, inspect, host.platform, ctx.arch)) ?? null;
  const modes: LaunchMode[] = [
    ...(preferred ? (["npm-native"] as const) : []),
    ...(await launchModes(candidate, info, host)),
  ];
  const plan: ProbePlan = {
    candidate,
    info,
    base,
    preferred,
    modes,
    executable: { probe: "executable", result: "pass", ms: 0 },
  };
  const stated = info.statedVersion;
  if (stated !== undefined && !spec.isSupportedVersion(stated)) {
    // refused by what the file says, before its version arguments could run
    return unsupportedResult(
      base,
      plan.executable,
      null,
      { version: stated, mode: modes[0] ?? "direct" },
      spec,
    );
  }
  const key = probeCacheKey(plan, ctx);
  const hit = ctx.readCache ? ctx.cache?.getProbe(key) : undefined;
  if (hit && modes.includes(hit.launch)) {
    const found = { version: hit.version, mode: hit.launch };
    if (!spec.isSupportedVersion(hit.version)) {
      const version: ProbeOutcome = { probe: "version", result: "pass", ms: 0 };
      return unsupportedResult(base, plan.executable, version, found, spec);
    }
    const resolved = resolvedFor(plan, found.mode, found.version, ctx);
    return passedResult(base, { ...found, probes: hit.probes, cached: true }, resolved);
  }
  const probed = await probeUncached(plan, ctx);
  if (probed.resolved && probed.report.version !== null && probed.report.launch !== null) {
    const { version, launch, probes } = probed.report;
    ctx.cache?.setProbe(key, { version, launch, probes });
  }
  return probed;
}

/** The version probe (each launch mode until one prints a version), the support check, the verify step. */
async function probeUncached(plan: ProbePlan, ctx: ProbeContext): Promise<ProbedCandidate> {
  const { spec } = ctx;
  const { base, executable } = plan;
  const probed = await probeVersions(plan, ctx);
  if (probed.type === "aborted") return abortedResult(base);
  if (probed.type === "failed") {
    const version: ProbeOutcome = { probe: "version", result: "fail", ms: probed.ms, reason: probed.reason };
    const skipped = spec.verify ? [skippedProbe(spec.verify.name)] : [];
    return failedResult(base, [executable, version, ...skipped], `version: ${probed.reason}`);
  }
  const { found, outcome: version } = probed;
  if (!spec.isSupportedVersion(found.version)) {
    return unsupportedResult(base, executable, version, found, spec);
  }
  const resolved = resolvedFor(plan, found.mode, found.version, ctx);
  if (!spec.verify)
    return passedResult(base, { ...found, probes: [executable, version], cached: false }, resolved);
  const verified = await spec.verify.run(resolved.launch, {
    launchOptions: probeLaunchOptions(ctx.host, ctx.spec),
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    launcher: ctx.launcher,
  });
  const name = spec.verify.name;
  if (verified.type === "fail") {
    if (verified.aborted) return abortedResult(base);
    const failed: ProbeOutcome = { probe: name, result: "fail", ms: verified.ms, reason: verified.reason };
    return failedResult(base, [executable, version, failed], `${name}: ${verified.reason}`, found);
  }
  const probes: ProbeOutcome[] = [executable, version, { probe: name, result: "pass", ms: verified.ms }];
  return passedResult(base, { ...found, probes, cached: false }, resolved);
}

type VersionsProbed =
  | { type: "found"; found: FoundVersion; outcome: ProbeOutcome }
  | { type: "failed"; reason: string; ms: number }
  | { type: "aborted" };

/** Runs the version arguments in each launch mode until one prints a version; notes why earlier modes failed. */
async function probeVersions(plan: ProbePlan, ctx: ProbeContext): Promise<VersionsProbed> {
  const failures: string[] = [];
  let ms = 0;
  for (const mode of plan.modes) {
    const attempt = resolvedFor(plan, mode, null, ctx);
    const result = await probeVersion(
      launchSpec(
        attempt.launch,
        ctx.spec.versionArgs,
        probeLaunchOptions(ctx.host, ctx.spec),
        ctx.spec.naming,
      ),
      {
        timeoutMs: ctx.timeoutMs,
        signal: ctx.signal,
        parseVersion: (output) => ctx.spec.parseVersion(output),
      },
    );
    ms += result.ms;
    if (result.type === "fail" && result.aborted) return { type: "aborted" };
    if (result.type === "pass") {
      const outcome: ProbeOutcome = {
        probe: "version",
        result: "pass",
        ms,
        ...(failures.length > 0
          ? { reason: `direct launch failed (${failures.join("; ")}); ran through the node beside it` }
          : {}),
      };
      return { type: "found", found: { version: result.version, mode }, outcome };
    }
    failures.push(
      mode === "node-launcher"
        ? `through ${siblingNodePath(plan.candidate.path, ctx.host.platform)}: ${result.reason}`
        : result.reason,
    );
  }
  return { type: "failed", reason: failures.join("; "), ms };
}

/** Why a file cannot be a candidate at all, or null. Pure. */
export function executableProblem(info: FileInfo | null, platform: NodeJS.Platform): string | null {
  if (!info) return "not found";
  switch (info.kind) {
    case "directory":
      return "is a directory";
    case "broken-link":
      return "is a symlink whose target is missing";
    case "other":
      return "is not a regular file";
    case "file":
      if (info.executable) return null;
      return platform === "win32"
        ? "is not an .exe or .cmd file"
        : "is not executable (no execute permission for this user)";
  }
}

/** The probes after `executable`, in order. */
function laterProbes(spec: ExecutableSpec): string[] {
  return spec.verify ? ["version", spec.verify.name] : ["version"];
}

/** The launch modes of the found file itself, in order (the preferred launch comes before them). */
async function launchModes(candidate: Candidate, info: FileInfo, host: LocusHost): Promise<LaunchMode[]> {
  if (candidate.kind === "windows-cmd") return ["windows-cmd"];
  if (!isNodeShebang(info.shebang)) return ["direct"];
  const [node] = await host.inspect([siblingNodePath(candidate.path, host.platform)]);
  return node?.kind === "file" && node.executable ? ["direct", "node-launcher"] : ["direct"];
}

/**
 * The cache key of one candidate: the preferred binary's path and {@link fileIdentity}, the spec's tag, the locus,
 * the file's path, real path and identity, the launch environment, the modes and, for a directory-dependent shim,
 * the probe's cwd. The order of the parts is kept: a new order would make every cached probe stale.
 */
function probeCacheKey(plan: ProbePlan, ctx: ProbeContext): string {
  const { info, preferred } = plan;
  return cacheKey([
    preferred ? [preferred.binary.path, ...fileIdentity(preferred.binary)] : null,
    ctx.spec.cacheTag,
    ctx.host.locus,
    plan.candidate.path,
    info.realpath,
    ...fileIdentity(info),
    ctx.launchEnv,
    plan.modes,
    isDirectoryDependentShim(info, ctx.host.platform) ? (ctx.host.probeCwd ?? null) : null,
  ]);
}

/**
 * What tells one file from another at the same path, for a cache key: size, mtime, inode and change time (a copy
 * over it that keeps its size and mtime, as `cp -p` makes, still changes the change time). Pure.
 */
function fileIdentity(file: FileInfo): [number, number, number, number] {
  return [file.size, file.mtimeMs, file.ino, file.ctimeMs];
}

/** The {@link ResolvedExecutable} for a candidate in one launch mode. */
function resolvedFor(
  plan: ProbePlan,
  mode: LaunchMode,
  version: string | null,
  ctx: ProbeContext,
): ResolvedExecutable {
  const { host, launchEnv } = ctx;
  const { candidate, preferred } = plan;
  const common = { path: candidate.path, version, source: candidate.source };
  if (mode === "npm-native" && preferred) {
    return { launch: host.launch([preferred.binary.path], { ...launchEnv, ...preferred.env }), ...common };
  }
  if (mode === "windows-cmd") {
    const env = Object.keys(launchEnv).length > 0 ? { env: launchEnv } : {};
    return { launch: { type: "windows-cmd", shim: candidate.path, ...env }, ...common };
  }
  const argv: [string] | [string, string] =
    mode === "node-launcher"
      ? [siblingNodePath(candidate.path, host.platform), candidate.path]
      : [candidate.path];
  return { launch: host.launch(argv, launchEnv), ...common };
}

/**
 * Where probe children start: the locus's spawn environment (natively with the spec's `cwdRelativeVariables` made
 * absolute) and, natively, the project directory.
 */
function probeLaunchOptions(host: LocusHost, spec: ExecutableSpec): LaunchOptions {
  const names = host.locus.type === "native" ? (spec.cwdRelativeVariables ?? []) : [];
  const baseEnv = withAbsoluteDirs(host.spawnEnv, names, host.platform);
  return host.probeCwd === undefined ? { baseEnv } : { baseEnv, cwd: host.probeCwd };
}
