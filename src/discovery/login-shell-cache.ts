import { promises as fs } from "node:fs";
import type { LoginShellReport } from "./discovery-report.js";
import type { LocusHost } from "./locus-host.js";
import { readLoginShellPath } from "./login-shell-path.js";
import { dedupeDirs, envGet, joinPathList, pathApi, splitPathList } from "./platform-env.js";
import { cacheKey, type ProbeCache } from "./probe-cache.js";

/** The login-shell PATH (cached by the shell, its rc files and the inherited PATH for the native locus). */
export async function loginShellPath(
  host: LocusHost,
  options: {
    /** Why the login shell is not run at all, or null to run it (or use its cached outcome). */
    skip: string | null;
    timeoutMs: number;
    signal: AbortSignal | undefined;
    cache: ProbeCache | null;
    readCache: boolean;
  },
): Promise<{ report: LoginShellReport; path: string | null }> {
  if (options.skip !== null) return { report: { type: "skipped", reason: options.skip }, path: null };
  if (host.platform === "win32")
    return { report: { type: "skipped", reason: "not used on Windows" }, path: null };
  const shell = host.shell;
  if (!shell) return { report: { type: "skipped", reason: "SHELL is not set" }, path: null };
  const key = host.locus.type === "native" && options.cache ? await loginShellCacheKey(host, shell) : null;
  const hit = key && options.readCache ? options.cache?.getLoginShell(key) : undefined;
  if (hit?.failed !== undefined) {
    return { report: { type: "failed", shell, reason: hit.failed, ms: hit.ms, cached: true }, path: null };
  }
  if (hit) {
    const entries = splitPathList(hit.path, host.platform).length;
    return {
      report: { type: "ok", shell, flags: hit.flags, entries, ms: hit.ms, cached: true },
      path: hit.path,
    };
  }
  const result = await readLoginShellPath({
    shell,
    env: host.locus.type === "native" ? host.env : host.spawnEnv,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    wrap: (argv) => host.command(argv),
    cwd: host.locus.type === "native" ? host.homedir : undefined,
  });
  if (result.type === "failed") {
    // a stopped shell says nothing about the next session; a failed one would fail again until its files change
    if (key && !result.aborted)
      options.cache?.setLoginShell(key, { path: "", flags: "", ms: result.ms, failed: result.reason });
    return {
      report: { type: "failed", shell, reason: result.reason, ms: result.ms, cached: false },
      path: null,
    };
  }
  if (key) options.cache?.setLoginShell(key, { path: result.path, flags: result.flags, ms: result.ms });
  const entries = splitPathList(result.path, host.platform).length;
  return {
    report: { type: "ok", shell, flags: result.flags, entries, ms: result.ms, cached: false },
    path: result.path,
  };
}

/** Startup files whose change can change the login PATH (stat only: size, mtime, inode and change time). */
const RC_FILES = [
  ".profile",
  ".bash_profile",
  ".bash_login",
  ".bashrc",
  ".zshenv",
  ".zprofile",
  ".zshrc",
  ".zlogin",
  ".config/fish/config.fish",
  ".config/fish/conf.d",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".kshrc",
  ".mkshrc",
  ".nvm/alias/default",
  ".tool-versions",
  ".config/mise/config.toml",
];
const SYSTEM_RC_FILES = [
  "/etc/profile",
  "/etc/profile.d",
  "/etc/bash.bashrc",
  "/etc/bashrc",
  "/etc/environment",
  "/etc/zshenv",
  "/etc/zprofile",
  "/etc/zshrc",
  "/etc/zsh/zshenv",
  "/etc/zsh/zprofile",
  "/etc/zsh/zshrc",
  "/etc/paths",
  "/etc/paths.d",
];

async function loginShellCacheKey(host: LocusHost, shell: string): Promise<string> {
  const p = pathApi(host.platform);
  const zdotdir = envGet(host.env, "ZDOTDIR", host.platform);
  const files = [
    shell,
    ...RC_FILES.map((file) => p.join(host.homedir, file)),
    ...(zdotdir ? [".zshenv", ".zprofile", ".zshrc", ".zlogin"].map((file) => p.join(zdotdir, file)) : []),
    ...SYSTEM_RC_FILES,
  ];
  const stats = await Promise.all(
    files.map((file) =>
      fs.stat(file).then(
        (stat) => [file, stat.size, stat.mtimeMs, stat.ino, stat.ctimeMs],
        () => [file, null],
      ),
    ),
  );
  return cacheKey(["login-shell/1", host.homedir, envGet(host.env, "PATH", host.platform) ?? "", stats]);
}

/**
 * The variables every launch gets: PATH = login-shell PATH, then the inherited PATH, de-duplicated, when that
 * adds anything (so `#!/usr/bin/env node` and the commands the executable runs see the user's terminal PATH).
 */
export function launchEnvironment(host: LocusHost, loginPath: string | null): Record<string, string> {
  const inherited = envGet(host.env, "PATH", host.platform) ?? "";
  if (!loginPath) return {};
  const merged = joinPathList(
    dedupeDirs(
      [...splitPathList(loginPath, host.platform), ...splitPathList(inherited, host.platform)],
      host.platform,
    ),
    host.platform,
  );
  if (merged === inherited && host.locus.type === "native") return {};
  return { PATH: merged };
}
