import os from "node:os";
import { performance } from "node:perf_hooks";
import type { Launcher } from "../../process/stdio-child.js";
import { candidateDirs } from "./candidate-dirs.js";
import { findCandidates, overrideCandidate, type Candidate } from "./candidates.js";
import type { CodexLocus } from "../../discovery/discovery-types.js";
import type { CandidateReport, DiscoveryReport, LoginShellReport } from "../../discovery/discovery-report.js";
import { launchEnvironment, loginShellPath } from "./login-shell-cache.js";
import type { LocusHost } from "../../discovery/locus-host.js";
import { createNativeHost } from "./native-host.js";
import { envGet, pathApi } from "../../discovery/platform-env.js";
import { probeCandidate, type ProbeContext, type ProbedCandidate } from "./probe.js";
import { defaultCacheDir, ProbeCache } from "../../discovery/probe-cache.js";
import { rankCandidates } from "../../discovery/rank.js";
import { createWslHost } from "./wsl-host.js";
import { defaultWslExe, locusForCwd, parseWslUncPath } from "../../discovery/wsl-locus.js";
import { unsupportedVersionMessage } from "../versions/supported-version.js";

export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;
export const DEFAULT_LOGIN_SHELL_TIMEOUT_MS = 5_000;
/** Candidates probed at the same time (best-ranked first). */
const PROBE_CONCURRENCY = 4;

export interface DiscoverOptions {
  /** The environment to discover from (PATH, HOME, SHELL, RENNET_CODEX_BIN, …). Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Default: `process.platform`. */
  platform?: NodeJS.Platform;
  /** Default: HOME (USERPROFILE on Windows) of `env`, then `os.homedir()`. */
  homedir?: string;
  /** The repository: decides the locus (a `\\wsl.localhost\…` path on Windows means WSL). Default: `process.cwd()`. */
  cwd?: string;
  /** For Windows vendor folders. Default: `process.arch`. */
  arch?: string;
  /** Deadline of each probe step (`--version`, the `initialize` handshake). Default 10 s. */
  timeoutMs?: number;
  /** Budget for reading the login-shell PATH. Default 5 s. */
  loginShellTimeoutMs?: number;
  /** Set false to skip the login shell. */
  loginShell?: boolean;
  /** Directory of `probe-cache.json`. Default: `$RENNET_STATE_DIR`, else `<tmpdir>/rennet-<uid>`. */
  cacheDir?: string;
  /** `use` (default), `refresh` (probe again, then store), `off`. */
  cache?: "use" | "refresh" | "off";
  /** Age after which a cached probe or login-shell PATH is measured again. Default 24 h. */
  cacheTtlMs?: number;
  /** Aborting kills every probe child and rejects with `signal.reason`. */
  signal?: AbortSignal;
  /**
   * `first-passing` (default): stop probing worse-ranked candidates once the best passing one is known.
   * `all`: probe every candidate (for the doctor report).
   */
  mode?: "first-passing" | "all";
  /** Starts `app-server` for the handshake probe. Default: `launchProbeAppServer` (the app-server launcher with short graces). */
  launcher?: Launcher;
  /** Prefix for system-wide locations (`/usr/local/bin`, `/Applications`, …); for hermetic tests. */
  systemRoot?: string;
  /** `wsl.exe` for a WSL locus. Default: `%SystemRoot%\System32\wsl.exe`. */
  wslExe?: string;
  /**
   * Probe exactly this file and nothing else (the CLI's `--codex-bin`): no other candidate is considered, and
   * the report says why it fails. Launch modes (node launcher, `.cmd`, WSL) apply as for any candidate.
   */
  codexBin?: string;
}

/**
 * Finds the user's Codex the way a GUI app must, without trusting the inherited PATH: `RENNET_CODEX_BIN` first,
 * then the login-shell PATH, the process PATH, known install locations and desktop-app bundles, each candidate
 * probed (executable, `--version`, `app-server` `initialize`) in parallel with deadlines. The chosen command is
 * the best-ranked candidate that passes all three. Never throws except with `signal.reason` on abort.
 */
export async function discoverCodex(options: DiscoverOptions = {}): Promise<DiscoveryReport> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const signal = options.signal;
  signal?.throwIfAborted();
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const homedir =
    options.homedir ?? envGet(env, platform === "win32" ? "USERPROFILE" : "HOME", platform) ?? os.homedir();
  const cwd = options.cwd ?? process.cwd();
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const loginShellTimeoutMs = options.loginShellTimeoutMs ?? DEFAULT_LOGIN_SHELL_TIMEOUT_MS;
  const mode = options.mode ?? "first-passing";
  const locus = locusForCwd(cwd, platform);

  const unavailable = (reason: string, extra: Partial<DiscoveryReport> = {}): DiscoveryReport => ({
    available: false,
    chosen: null,
    candidates: [],
    reason,
    elapsedMs: elapsed(),
    locus,
    platform: locus.type === "wsl" ? "linux" : platform,
    loginShell: { type: "skipped", reason: "discovery stopped before the login shell" },
    cacheFile: null,
    ...extra,
  });

  // the locus
  let host: LocusHost;
  if (locus.type === "wsl") {
    const created = await createWslHost({
      wslExe: options.wslExe ?? defaultWslExe(env),
      distro: locus.distro,
      windowsEnv: env,
      timeoutMs: loginShellTimeoutMs,
      signal,
    });
    signal?.throwIfAborted();
    if (created.type === "failed") return unavailable(created.reason);
    host = created.host;
  } else {
    const shell =
      envGet(env, "SHELL", platform) ??
      (options.env === undefined && platform !== "win32" ? os.userInfo().shell : null) ??
      null;
    host = await createNativeHost({ platform, env, homedir, shell, cwd });
  }
  const locusCwd = locus.type === "wsl" ? (parseWslUncPath(cwd)?.linuxPath ?? undefined) : cwd;

  const cache =
    options.cache === "off"
      ? null
      : await ProbeCache.open(options.cacheDir ?? defaultCacheDir(env), { ttlMs: options.cacheTtlMs });
  const readCache = options.cache !== "refresh";

  // the login-shell PATH and the environment every launch gets (an explicit file is launched as given)
  const { report: loginShell, path: loginPath } = await loginShellPath(host, {
    skip:
      options.codexBin !== undefined
        ? "not needed: --codex-bin is launched as given"
        : options.loginShell === false
          ? "disabled"
          : null,
    timeoutMs: loginShellTimeoutMs,
    signal,
    cache,
    readCache,
  });
  signal?.throwIfAborted();
  const launchEnv = launchEnvironment(host, loginPath);

  const context: Omit<ProbeContext, "signal"> = {
    host,
    launchEnv,
    timeoutMs,
    launcher: options.launcher ?? null,
    cache,
    readCache,
  };

  // --codex-bin: this file only
  if (options.codexBin !== undefined) {
    const candidate = {
      ...(await overrideCandidate(host, options.codexBin, locusCwd)),
      label: "--codex-bin",
    };
    const result = await probeCandidate(candidate, {
      ...context,
      signal: signal ?? new AbortController().signal,
    });
    signal?.throwIfAborted();
    await cache?.save();
    return finish([{ candidate, result }], loginShell, 0);
  }

  // RENNET_CODEX_BIN: probed first, wins when it passes
  const overrideValue = envGet(env, "RENNET_CODEX_BIN", platform);
  let override: { candidate: Candidate; result: ProbedCandidate } | null = null;
  if (overrideValue) {
    const candidate = await overrideCandidate(host, overrideValue, locusCwd);
    const result = await probeCandidate(candidate, {
      ...context,
      signal: signal ?? new AbortController().signal,
    });
    signal?.throwIfAborted();
    override = { candidate, result };
    if (result.codex && mode === "first-passing") {
      await cache?.save();
      return finish([{ candidate, result }], loginShell);
    }
  }

  // every other candidate
  const dirs = candidateDirs({
    platform: host.platform,
    env: host.env,
    homedir: host.homedir,
    loginShellPath: loginPath,
    npmPrefix: host.npmPrefix,
    systemRoot: options.systemRoot,
    windowsProfileMount: host.windowsProfileMount,
  });
  const p = pathApi(host.platform);
  const overrideKey = override ? p.normalize(override.candidate.path) : null;
  const found = (await findCandidates(host, dirs, options.arch ?? process.arch)).filter(
    (candidate) => p.normalize(candidate.path) !== overrideKey,
  );
  signal?.throwIfAborted();
  const ranked = rankCandidates(found);
  const results = await probeAll(ranked, context, { mode, signal });
  signal?.throwIfAborted();
  await cache?.save();
  const all = ranked.map((candidate, index) => ({ candidate, result: results[index] as ProbedCandidate }));
  return finish(override ? [override, ...all] : all, loginShell, dirs.length);

  function finish(
    entries: { candidate: Candidate; result: ProbedCandidate }[],
    login: LoginShellReport,
    dirCount?: number,
  ): DiscoveryReport {
    const chosenIndex = entries.findIndex((entry) => entry.result.codex !== null);
    const candidates: CandidateReport[] = entries.map((entry, index) => ({
      rank: index + 1,
      ...entry.result.report,
      chosen: index === chosenIndex,
    }));
    const chosenEntry = chosenIndex >= 0 ? entries[chosenIndex] : undefined;
    const report: DiscoveryReport = {
      available: chosenEntry !== undefined,
      chosen: chosenEntry?.result.codex ?? null,
      candidates,
      elapsedMs: elapsed(),
      locus,
      platform: host.platform,
      loginShell: login,
      cacheFile: cache?.file ?? null,
    };
    if (!chosenEntry) {
      const tooOld = candidates.find((candidate) => candidate.code === "CODEX_UNSUPPORTED_VERSION");
      if (tooOld?.version) {
        report.code = "CODEX_UNSUPPORTED_VERSION";
        report.reason = `${unsupportedVersionMessage(tooOld.version)} (${tooOld.path})`;
      } else {
        report.reason = unavailableReason(candidates, dirCount ?? 0, locus);
      }
    }
    return report;
  }
}

/** Probes ranked candidates in parallel (bounded), stopping worse-ranked ones once the winner is certain. */
async function probeAll(
  ranked: readonly Candidate[],
  context: Omit<ProbeContext, "signal">,
  options: { mode: "first-passing" | "all"; signal: AbortSignal | undefined },
): Promise<ProbedCandidate[]> {
  const controllers = ranked.map(() => new AbortController());
  const abortAll = (): void => controllers.forEach((controller) => controller.abort());
  options.signal?.addEventListener("abort", abortAll, { once: true });
  const results: (ProbedCandidate | undefined)[] = new Array(ranked.length);
  const stopped = new Set<number>();
  const duplicates = new Map<number, string>();
  const seenRealpaths = new Map<string, string>();
  ranked.forEach((candidate, index) => {
    const info = candidate.info;
    if (!info || info.kind !== "file" || info.shebang !== null) return; // scripts depend on where they were found
    const first = seenRealpaths.get(info.realpath);
    if (first !== undefined) duplicates.set(index, first);
    else seenRealpaths.set(info.realpath, candidate.path);
  });
  const settleWinner = (): void => {
    if (options.mode !== "first-passing") return;
    let winner = -1;
    for (let i = 0; i < ranked.length; i++) {
      if (duplicates.has(i)) continue;
      const result = results[i];
      if (result === undefined) return; // a better-ranked candidate is still being probed
      if (result.codex) {
        winner = i;
        break;
      }
    }
    if (winner < 0) return;
    for (let i = winner + 1; i < ranked.length; i++) {
      if (results[i] === undefined && !stopped.has(i)) {
        stopped.add(i);
        controllers[i]?.abort();
      }
    }
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < ranked.length; index = next++) {
      const candidate = ranked[index] as Candidate;
      const controller = controllers[index] as AbortController;
      const duplicateOf = duplicates.get(index);
      if (duplicateOf !== undefined) {
        results[index] = notProbed(candidate, `same file as ${duplicateOf}`, duplicateOf);
      } else if (controller.signal.aborted) {
        results[index] = notProbed(candidate, "not needed: a better-ranked candidate passed");
      } else {
        const result = await probeCandidate(candidate, { ...context, signal: controller.signal });
        results[index] = result.aborted
          ? notProbed(candidate, "stopped: a better-ranked candidate passed")
          : result;
      }
      settleWinner();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PROBE_CONCURRENCY, ranked.length) }, worker));
  } finally {
    options.signal?.removeEventListener("abort", abortAll);
  }
  return results as ProbedCandidate[];
}

function notProbed(candidate: Candidate, reason: string, duplicateOf?: string): ProbedCandidate {
  return {
    report: {
      source: candidate.source,
      label: candidate.label,
      path: candidate.path,
      outcome: "not-probed",
      version: null,
      launch: null,
      cached: false,
      probes: [],
      reason,
      ...(duplicateOf === undefined ? {} : { duplicateOf }),
    },
    codex: null,
    aborted: false,
  };
}

function unavailableReason(
  candidates: readonly CandidateReport[],
  dirCount: number,
  locus: CodexLocus,
): string {
  const where = locus.type === "wsl" ? ` in WSL distribution "${locus.distro}"` : "";
  if (candidates.length === 1 && candidates[0]?.label === "--codex-bin") {
    return `--codex-bin ${candidates[0].path}: ${candidates[0].reason ?? "failed"}`;
  }
  if (candidates.length === 0) {
    return `no codex executable found${where} in ${dirCount} directories (login-shell PATH, PATH, known install locations)`;
  }
  const best = candidates.find((candidate) => candidate.outcome === "failed");
  const summary = best ? `; best-ranked: ${best.path}: ${best.reason ?? "failed"}` : "";
  return `none of ${candidates.length} candidate${candidates.length === 1 ? "" : "s"}${where} passed every probe${summary}`;
}
