import { performance } from "node:perf_hooks";
import { onAbort } from "../harness/on-abort.js";
import { settledWithin } from "../process/settled-within.js";
import type { Launcher } from "../process/stdio-child.js";
import { accountHome, accountShell } from "./account.js";
import { candidateDirSearch, type SkippedDir } from "./candidate-dirs.js";
import { findCandidates, overrideCandidate, type Candidate } from "./candidates.js";
import type { DiscoveryReport } from "./discovery-report.js";
import type { Locus } from "./discovery-types.js";
import { buildReport, explicitLabel, unavailableReport, type ProbedEntry } from "./discovery-verdict.js";
import type { ExecutableSpec } from "./executable-spec.js";
import type { LocusHost } from "./locus-host.js";
import { launchEnvironment, loginShellPath } from "./login-shell-cache.js";
import { createNativeHost } from "./native-host.js";
import { envGet, pathApi } from "./platform-env.js";
import { probeAll } from "./probe-all.js";
import { probeCandidate, type ProbeContext } from "./probe-candidate.js";
import { defaultCacheDir, ProbeCache } from "./probe-cache.js";
import { rankCandidates } from "./rank.js";
import { createWslHost } from "./wsl-host.js";
import { defaultWslExe, locusForCwd } from "./wsl-locus.js";

const DEFAULT_PROBE_TIMEOUT_MS = 10_000;
const DEFAULT_LOGIN_SHELL_TIMEOUT_MS = 5_000;

export interface DiscoverExecutableOptions {
  /** The environment to discover from (PATH, HOME, SHELL, the override variable, …). Default: `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Default: `process.platform`. */
  platform?: NodeJS.Platform | undefined;
  /** Default: HOME (USERPROFILE on Windows) of `env`, then `os.homedir()`; none: known locations under it are skipped. */
  homedir?: string | undefined;
  /** The repository: decides the locus (a `\\wsl.localhost\…` path on Windows means WSL). Default: `process.cwd()`. */
  cwd?: string | undefined;
  /** The CPU architecture of the binaries looked for (Windows vendor folders, npm's platform packages). Default: `process.arch`. */
  arch?: string | undefined;
  /** Deadline of each probe step (the version arguments, the verify step). Default 10 s. */
  timeoutMs?: number | undefined;
  /** Budget for reading the login-shell PATH. Default 5 s. */
  loginShellTimeoutMs?: number | undefined;
  /** Set false to skip the login shell. */
  loginShell?: boolean | undefined;
  /** Directory of `probe-cache.json`. Default: `$RENNET_STATE_DIR`, else `<tmpdir>/rennet-<uid>`. */
  cacheDir?: string | undefined;
  /** `use` (default), `refresh` (probe again, then store), `off`. */
  cache?: "use" | "refresh" | "off" | undefined;
  /** Age after which a cached probe or login-shell PATH is measured again. Default 24 h. */
  cacheTtlMs?: number | undefined;
  /** Aborting kills every probe child and rejects with `signal.reason` (within 2 s, even while a file system call hangs). */
  signal?: AbortSignal | undefined;
  /**
   * `first-passing` (default): stop probing worse-ranked candidates once the best passing one is known.
   * `all`: probe every candidate (for the doctor report).
   */
  mode?: "first-passing" | "all" | undefined;
  /** Starts the verify step's child; default: the step's own launcher. */
  launcher?: Launcher | undefined;
  /** Prefix for system-wide locations (`/usr/local/bin`, `/Applications`, …); for hermetic tests. */
  systemRoot?: string | undefined;
  /** `wsl.exe` for a WSL locus. Default: `%SystemRoot%\System32\wsl.exe`. */
  wslExe?: string | undefined;
  /**
   * Probe exactly this file and nothing else: no other candidate is considered, no login shell runs, and the
   * report says why it fails. Launch modes (node launcher, `.cmd`, WSL) apply as for any candidate.
   */
  explicitPath?: string | undefined;
}

/** The settings of one discovery, resolved once from its options. */
interface DiscoverContext {
  spec: ExecutableSpec;
  options: DiscoverExecutableOptions;
  signal: AbortSignal | undefined;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  cwd: string;
  locus: Locus;
  loginShellTimeoutMs: number;
  elapsed(): number;
}

/**
 * Finds the executable a spec describes the way a GUI app must, without trusting the inherited PATH: the spec's
 * override variable first, then the login-shell PATH, the process PATH, known install locations (with the spec's
 * own) and desktop-app bundles, each candidate probed (executable, version, the spec's verify step) in parallel
 * with deadlines. The chosen one is the best-ranked candidate that passes every probe. Never throws except with
 * `signal.reason` on abort.
 */
export async function discoverExecutable<Code extends string, Verify extends string>(
  spec: ExecutableSpec<Code, Verify>,
  options: DiscoverExecutableOptions = {},
): Promise<DiscoveryReport<Code, Verify>> {
  // the report holds only the spec's code and verify name besides the engine's own probe names
  return (await discover(spec, options)) as DiscoveryReport<Code, Verify>;
}

/**
 * Follows the caller's signal through one listener of its own (see {@link onAbort}): the login shell and every
 * probe listen to this discovery's signal, so any number of discoveries sharing one signal (an application's
 * shutdown signal) never trips Node's `MaxListenersExceededWarning`. After an abort, discovery rejects once its
 * probe children are gone, or {@link ABORT_WAIT_MS} later when something cannot be stopped (a file system call
 * on a share whose server went away never returns).
 */
async function discover(spec: ExecutableSpec, options: DiscoverExecutableOptions): Promise<DiscoveryReport> {
  const caller = options.signal;
  if (caller === undefined) return discoverUnder(spec, options);
  caller.throwIfAborted();
  const controller = new AbortController();
  let rejectAborted!: (reason: unknown) => void;
  const aborted = new Promise<never>((_resolve, reject) => {
    rejectAborted = reject;
  });
  let timer: NodeJS.Timeout | undefined;
  const unsubscribe = onAbort(caller, () => {
    controller.abort(caller.reason);
    timer = setTimeout(() => rejectAborted(caller.reason), ABORT_WAIT_MS);
  });
  const discovery = discoverUnder(spec, { ...options, signal: controller.signal });
  // whichever loses is settled later (or never, for a hung call) and must not surface as unhandled
  discovery.catch(() => {});
  aborted.catch(() => {});
  try {
    return await Promise.race([discovery, aborted]);
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}

/** How long an aborted discovery waits for its own steps to stop before it rejects without them. */
const ABORT_WAIT_MS = 2000;

async function discoverUnder(
  spec: ExecutableSpec,
  options: DiscoverExecutableOptions,
): Promise<DiscoveryReport> {
  const ctx = discoverContext(spec, options);
  ctx.signal?.throwIfAborted();
  const opened = await openLocus(ctx);
  ctx.signal?.throwIfAborted();
  if (opened.type === "failed") {
    const platform = ctx.locus.type === "wsl" ? "linux" : ctx.platform;
    return unavailableReport(spec, opened.reason, { elapsedMs: ctx.elapsed(), locus: ctx.locus, platform });
  }
  const host = opened.host;
  const cache =
    options.cache === "off"
      ? null
      : await openCacheWithin(options.cacheDir ?? defaultCacheDir(ctx.env), options.cacheTtlMs);
  const { report: loginShell, path: loginPath } = await loginShellPath(host, {
    skip: loginShellSkip(ctx),
    timeoutMs: ctx.loginShellTimeoutMs,
    signal: ctx.signal,
    cache,
    readCache: options.cache !== "refresh",
  });
  ctx.signal?.throwIfAborted();
  const probe: Omit<ProbeContext, "signal"> = {
    spec,
    host,
    launchEnv: launchEnvironment(host, loginPath),
    timeoutMs: options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    launcher: options.launcher ?? null,
    cache,
    readCache: options.cache !== "refresh",
    arch: options.arch ?? process.arch,
  };
  const { entries, dirCount, skippedDirs } = await probeCandidates(ctx, probe, loginPath);
  if (cache) await settledWithin(cache.save(), CACHE_WAIT_MS);
  return buildReport(spec, entries, {
    elapsedMs: ctx.elapsed(),
    locus: ctx.locus,
    platform: host.platform,
    loginShell,
    cacheFile: cache?.file ?? null,
    dirCount,
    skippedDirs,
  });
}

function discoverContext(spec: ExecutableSpec, options: DiscoverExecutableOptions): DiscoverContext {
  const started = performance.now();
  const platform = options.platform ?? process.platform;
  const cwd = options.cwd ?? process.cwd();
  return {
    spec,
    options,
    signal: options.signal,
    platform,
    env: options.env ?? process.env,
    cwd,
    locus: locusForCwd(cwd, platform),
    loginShellTimeoutMs: options.loginShellTimeoutMs ?? DEFAULT_LOGIN_SHELL_TIMEOUT_MS,
    elapsed: () => Math.round(performance.now() - started),
  };
}

/** The host of the locus: this machine, or the WSL distribution (failed when it cannot be reached). */
async function openLocus(
  ctx: DiscoverContext,
): Promise<{ type: "ok"; host: LocusHost } | { type: "failed"; reason: string }> {
  const { options, env, platform, locus } = ctx;
  const { scriptMarker, versionHeader } = ctx.spec;
  const reading = {
    ...(scriptMarker ? { scriptMarker } : {}),
    ...(versionHeader !== undefined ? { versionHeader } : {}),
  };
  if (locus.type === "wsl") {
    return createWslHost({
      wslExe: options.wslExe ?? defaultWslExe(env),
      distro: locus.distro,
      windowsEnv: env,
      timeoutMs: ctx.loginShellTimeoutMs,
      signal: ctx.signal,
      ...reading,
    });
  }
  const homedir =
    options.homedir ?? envGet(env, platform === "win32" ? "USERPROFILE" : "HOME", platform) ?? accountHome();
  const shell =
    envGet(env, "SHELL", platform) ??
    (options.env === undefined && platform !== "win32" ? accountShell() : null);
  const host = await createNativeHost({ platform, env, homedir, shell, cwd: ctx.cwd, ...reading });
  return { type: "ok", host };
}

/** Why the login shell is not run (an explicit path is launched as given), or null to run it. */
function loginShellSkip(ctx: DiscoverContext): string | null {
  if (ctx.options.explicitPath !== undefined)
    return `not needed: ${explicitLabel(ctx.spec)} is launched as given`;
  return ctx.options.loginShell === false ? "disabled" : null;
}

/**
 * The explicit path alone; else the override (alone when it passes in `first-passing` mode), then every other
 * candidate, ranked and probed.
 */
async function probeCandidates(
  ctx: DiscoverContext,
  probe: Omit<ProbeContext, "signal">,
  loginPath: string | null,
): Promise<{ entries: ProbedEntry[]; dirCount: number; skippedDirs: SkippedDir[] }> {
  const { spec, options } = ctx;
  if (options.explicitPath !== undefined) {
    const candidate = await overrideCandidate(probe.host, options.explicitPath, explicitLabel(spec), {
      spec,
      arch: probe.arch,
    });
    return { entries: [await probeAlone(ctx, candidate, probe)], dirCount: 0, skippedDirs: [] };
  }
  const overrideValue = envGet(ctx.env, spec.overrideVariable, ctx.platform);
  let override: ProbedEntry | null = null;
  if (overrideValue) {
    const candidate = await overrideCandidate(probe.host, overrideValue, spec.overrideVariable, {
      spec,
      arch: probe.arch,
    });
    override = await probeAlone(ctx, candidate, probe);
    if (override.result.resolved && (options.mode ?? "first-passing") === "first-passing")
      return { entries: [override], dirCount: 0, skippedDirs: [] };
  }
  const { ranked, dirCount, skippedDirs } = await rankedCandidates(
    ctx,
    probe,
    loginPath,
    override?.candidate.path ?? null,
  );
  const results = await probeAll(ranked, probe, {
    mode: options.mode ?? "first-passing",
    signal: ctx.signal,
  });
  ctx.signal?.throwIfAborted();
  const entries = ranked.map((candidate, index) => ({
    candidate,
    result: results[index] as ProbedEntry["result"],
  }));
  return { entries: override ? [override, ...entries] : entries, dirCount, skippedDirs };
}

async function probeAlone(
  ctx: DiscoverContext,
  candidate: Candidate,
  probe: Omit<ProbeContext, "signal">,
): Promise<ProbedEntry> {
  const result = await probeCandidate(candidate, {
    ...probe,
    signal: ctx.signal ?? new AbortController().signal,
  });
  ctx.signal?.throwIfAborted();
  return { candidate, result };
}

/** Every candidate in the candidate directories but the override's file, best first. */
async function rankedCandidates(
  ctx: DiscoverContext,
  probe: Omit<ProbeContext, "signal">,
  loginPath: string | null,
  overridePath: string | null,
): Promise<{ ranked: Candidate[]; dirCount: number; skippedDirs: SkippedDir[] }> {
  const { host, spec } = probe;
  const input = {
    platform: host.platform,
    env: host.env,
    homedir: host.homedir,
    loginShellPath: loginPath,
    npmPrefix: host.npmPrefix,
    systemRoot: ctx.options.systemRoot,
    windowsProfileMount: host.windowsProfileMount,
  };
  const { dirs, skipped } = candidateDirSearch(input, spec.ownDirs(input));
  const p = pathApi(host.platform);
  const overrideKey = overridePath === null ? null : p.normalize(overridePath);
  const found = (await findCandidates(host, dirs, spec, probe.arch)).filter(
    (candidate) => p.normalize(candidate.path) !== overrideKey,
  );
  ctx.signal?.throwIfAborted();
  return { ranked: rankCandidates(found), dirCount: dirs.length, skippedDirs: skipped };
}

/**
 * How long discovery waits for its probe cache, to open it and to save it. A local file system takes
 * milliseconds; one that stopped answering (a hard-mounted share whose server went away) never does, and
 * discovery goes on without the cache (a save goes on unwaited).
 */
const CACHE_WAIT_MS = 2000;

/** {@link ProbeCache.open}, or null (no cache) when it has not opened within {@link CACHE_WAIT_MS}. */
async function openCacheWithin(dir: string, ttlMs: number | undefined): Promise<ProbeCache | null> {
  const opening = ProbeCache.open(dir, { ttlMs });
  return (await settledWithin(opening, CACHE_WAIT_MS)) ? opening : null;
}
