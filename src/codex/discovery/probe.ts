import type { Launcher } from "../../process/stdio-child.js";
import type { Candidate } from "./candidates.js";
import { codexLaunchSpec, type ResolvedCodex } from "../launch/codex-launch.js";
import type { LaunchMode } from "../../discovery/discovery-types.js";
import type { CandidateReport, ProbeOutcome } from "../../discovery/discovery-report.js";
import type { FileInfo, LocusHost } from "../../discovery/locus-host.js";
import { isDirectoryDependentShim, isNodeShebang, siblingNodePath } from "../../discovery/node-launcher.js";
import { findNpmNative, npmManagedEnv, type NpmNative } from "../launch/npm-native.js";
import { loadProcessProbes } from "./load-process-probes.js";
import { cacheKey, type ProbeCache } from "../../discovery/probe-cache.js";
import { isSupportedCodexVersion } from "../versions/capabilities.js";
import { unsupportedVersionMessage } from "../versions/supported-version.js";

export interface ProbeContext {
  host: LocusHost;
  /** Variables every launch gets (the login-shell PATH); part of the cache key. */
  launchEnv: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Starts `app-server` for the handshake probe; null for the default (`launchProbeAppServer`). */
  launcher: Launcher | null;
  cache: ProbeCache | null;
  /** False to ignore cached results (they are still written). */
  readCache: boolean;
}

/** A probed candidate: its report (without rank/chosen) and, when it passed, how to launch it. */
export interface ProbedCandidate {
  report: Omit<CandidateReport, "rank" | "chosen">;
  codex: ResolvedCodex | null;
  /** The probe was stopped by the signal; its result says nothing about the candidate. */
  aborted: boolean;
}

/**
 * Runs the three probes on one candidate: executable (a stat), `--version` prints a version, `app-server`
 * answers `initialize`. A node script that cannot start directly is retried through the `node` beside it.
 * A pass is cached by the file's identity and launch environment.
 */
export async function probeCandidate(candidate: Candidate, ctx: ProbeContext): Promise<ProbedCandidate> {
  const base = { source: candidate.source, label: candidate.label, path: candidate.path };
  const info = candidate.info;
  const notExecutable = executableProblem(info, ctx.host.platform);
  if (notExecutable || !info) {
    const reason = notExecutable ?? "not found";
    return failed(
      base,
      [{ probe: "executable", result: "fail", ms: 0, reason }, skip("version"), skip("handshake")],
      `executable: ${reason}`,
    );
  }
  const executable: ProbeOutcome = { probe: "executable", result: "pass", ms: 0 };
  const native = await findNpmNative(info, (paths) => ctx.host.inspect(paths), ctx.host.platform);
  const modes: LaunchMode[] = [
    ...(native ? (["npm-native"] as const) : []),
    ...(await launchModes(candidate, info, ctx.host)),
  ];
  const key = cacheKey([
    native ? [native.binary.path, native.binary.size, native.binary.mtimeMs, native.binary.ino] : null,
    "probe/1",
    ctx.host.locus,
    candidate.path,
    info.realpath,
    info.size,
    info.mtimeMs,
    info.ino,
    ctx.launchEnv,
    modes,
    isDirectoryDependentShim(info, ctx.host.platform) ? (ctx.host.probeCwd ?? null) : null,
  ]);
  const hit = ctx.readCache ? ctx.cache?.getProbe(key) : undefined;
  if (hit && modes.includes(hit.launch) && !isSupportedCodexVersion(hit.version)) {
    return tooOld(base, [executable, { probe: "version", result: "pass", ms: 0 }], {
      version: hit.version,
      mode: hit.launch,
    });
  }
  if (hit && modes.includes(hit.launch)) {
    return {
      report: {
        ...base,
        outcome: "passed",
        version: hit.version,
        launch: hit.launch,
        cached: true,
        probes: hit.probes,
      },
      codex: resolvedFor(candidate, hit.launch, hit.version, ctx, native),
      aborted: false,
    };
  }

  const { probeVersion, probeHandshake, launchProbeAppServer } = await loadProcessProbes();
  const versionFailures: string[] = [];
  let chosen: { mode: LaunchMode; version: string; ms: number } | null = null;
  let versionMs = 0;
  for (const mode of modes) {
    const attempt = resolvedFor(candidate, mode, null, ctx, native);
    const result = await probeVersion(codexLaunchSpec(attempt.launch, ["--version"], launchOptions(ctx)), {
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
    });
    versionMs += result.ms;
    if (result.type === "fail" && result.aborted) return abortedResult(base);
    if (result.type === "pass") {
      chosen = { mode, version: result.version, ms: versionMs };
      break;
    }
    versionFailures.push(
      mode === "node-launcher"
        ? `through ${siblingNodePath(candidate.path, ctx.host.platform)}: ${result.reason}`
        : result.reason,
    );
  }
  if (!chosen) {
    const reason = versionFailures.join("; ");
    return failed(
      base,
      [executable, { probe: "version", result: "fail", ms: versionMs, reason }, skip("handshake")],
      `version: ${reason}`,
    );
  }
  const version: ProbeOutcome = {
    probe: "version",
    result: "pass",
    ms: chosen.ms,
    ...(versionFailures.length > 0
      ? { reason: `direct launch failed (${versionFailures.join("; ")}); ran through the node beside it` }
      : {}),
  };
  const codex = resolvedFor(candidate, chosen.mode, chosen.version, ctx, native);
  if (!isSupportedCodexVersion(chosen.version)) return tooOld(base, [executable, version], chosen);
  const handshake = await probeHandshake(codexLaunchSpec(codex.launch, ["app-server"], launchOptions(ctx)), {
    launcher: ctx.launcher ?? launchProbeAppServer,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
  });
  if (handshake.type === "fail") {
    if (handshake.aborted) return abortedResult(base);
    const probes: ProbeOutcome[] = [
      executable,
      version,
      { probe: "handshake", result: "fail", ms: handshake.ms, reason: handshake.reason },
    ];
    const result = failed(base, probes, `handshake: ${handshake.reason}`);
    return { ...result, report: { ...result.report, version: chosen.version, launch: chosen.mode } };
  }
  const probes: ProbeOutcome[] = [
    executable,
    version,
    { probe: "handshake", result: "pass", ms: handshake.ms },
  ];
  ctx.cache?.setProbe(key, { version: chosen.version, launch: chosen.mode, probes });
  return {
    report: {
      ...base,
      outcome: "passed",
      version: chosen.version,
      launch: chosen.mode,
      cached: false,
      probes,
    },
    codex,
    aborted: false,
  };
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

/** The launch modes to try, in order. */
async function launchModes(candidate: Candidate, info: FileInfo, host: LocusHost): Promise<LaunchMode[]> {
  if (candidate.kind === "windows-cmd") return ["windows-cmd"];
  if (!isNodeShebang(info.shebang)) return ["direct"];
  const [node] = await host.inspect([siblingNodePath(candidate.path, host.platform)]);
  return node?.kind === "file" && node.executable ? ["direct", "node-launcher"] : ["direct"];
}

/** The {@link ResolvedCodex} for a candidate in one launch mode. */
function resolvedFor(
  candidate: Candidate,
  mode: LaunchMode,
  version: string | null,
  ctx: ProbeContext,
  native: NpmNative | null,
): ResolvedCodex {
  const { host, launchEnv } = ctx;
  const common = { path: candidate.path, version, source: candidate.source };
  if (mode === "npm-native" && native) {
    const env = { ...launchEnv, ...npmManagedEnv(native.packageRoot) };
    return { launch: host.codexLaunch([native.binary.path], env), ...common };
  }
  if (mode === "windows-cmd") {
    return { launch: { type: "windows-cmd", shim: candidate.path, ...envField(launchEnv) }, ...common };
  }
  const argv: [string] | [string, string] =
    mode === "node-launcher"
      ? [siblingNodePath(candidate.path, host.platform), candidate.path]
      : [candidate.path];
  return { launch: host.codexLaunch(argv, launchEnv), ...common };
}

function launchOptions(ctx: ProbeContext): { baseEnv: NodeJS.ProcessEnv; cwd?: string } {
  return ctx.host.probeCwd === undefined
    ? { baseEnv: ctx.host.spawnEnv }
    : { baseEnv: ctx.host.spawnEnv, cwd: ctx.host.probeCwd };
}

function envField(env: Record<string, string>): { env?: Record<string, string> } {
  return Object.keys(env).length > 0 ? { env } : {};
}

function skip(probe: ProbeOutcome["probe"]): ProbeOutcome {
  return { probe, result: "skipped", ms: 0, reason: "an earlier probe failed" };
}

function failed(
  base: Pick<CandidateReport, "source" | "label" | "path">,
  probes: ProbeOutcome[],
  reason: string,
): ProbedCandidate {
  return {
    report: { ...base, outcome: "failed", version: null, launch: null, cached: false, probes, reason },
    codex: null,
    aborted: false,
  };
}

/**
 * A candidate older than the oldest supported codex (`MINIMUM_SUPPORTED_CODEX`): the handshake probe refuses it without starting the
 * app-server (its `thread/start` would fail in ways that name no version), with `CODEX_UNSUPPORTED_VERSION`.
 */
function tooOld(
  base: Pick<CandidateReport, "source" | "label" | "path">,
  probes: ProbeOutcome[],
  found: { version: string; mode: LaunchMode },
): ProbedCandidate {
  const reason = unsupportedVersionMessage(found.version);
  const result = failed(
    base,
    [...probes, { probe: "handshake", result: "fail", ms: 0, reason }],
    `handshake: ${reason}`,
  );
  return {
    ...result,
    report: {
      ...result.report,
      version: found.version,
      launch: found.mode,
      code: "CODEX_UNSUPPORTED_VERSION",
    },
  };
}

function abortedResult(base: Pick<CandidateReport, "source" | "label" | "path">): ProbedCandidate {
  return {
    report: {
      ...base,
      outcome: "not-probed",
      version: null,
      launch: null,
      cached: false,
      probes: [],
      reason: "stopped",
    },
    codex: null,
    aborted: true,
  };
}
