import type { LaunchSpec } from "../../process/app-server-process.js";
import { LaunchCwdError } from "./errors.js";
import { windowsCmdLaunch } from "./windows-launch.js";
import { parseWslExecArgs, parseWslUncPath, wslExecArgs } from "./wsl-locus.js";

/** Where a candidate was found. Ranking: `env-override` first, `desktop-app` below every user-installed CLI. */
export type CandidateSource =
  /** `RENNET_CODEX_BIN`. */
  | "env-override"
  /** A directory of the PATH printed by the user's login shell. */
  | "login-shell-path"
  /** A directory of the PATH this process inherited. */
  | "process-path"
  /** A well-known install location (npm global, Homebrew, asdf, nvm, fnm, mise, Volta, bun, pnpm, …). */
  | "known-location"
  /** A CLI bundled with a desktop app (ChatGPT.app / Codex.app, the Windows app's WSL CLI). */
  | "desktop-app";

/** Where Codex runs: on this OS, or inside one WSL distribution (reached through `wsl.exe`). */
export type CodexLocus = { type: "native" } | { type: "wsl"; distro: string };

/**
 * How the chosen file is started:
 * - `direct`: the file itself (a native binary, a shim, or a script whose interpreter is on the child's PATH);
 * - `node-launcher`: the npm `codex` script run by the `node` executable that sits beside it;
 * - `windows-cmd`: a `codex.cmd` batch shim run through `cmd.exe /d /s /c` with escaped arguments.
 */
export type LaunchMode = "direct" | "node-launcher" | "windows-cmd";

/**
 * How to launch one chosen Codex. For `direct` and `node-launcher` (and WSL) a session runs
 * `command [...prefixArgs, "app-server", ...]`; always build the spawn with {@link codexLaunchSpec}, which
 * also handles `windows-cmd` quoting, the WSL working directory and extra environment variables.
 */
export interface CodexCommand {
  /** The executable to spawn: the codex file, its sibling `node`, the `.cmd` shim, or `wsl.exe`. */
  command: string;
  /** Arguments before Codex's own (the script path for `node-launcher`; the `wsl.exe` prefix for WSL). */
  prefixArgs: string[];
  /** Variables to set on top of the parent's environment (e.g. the login-shell PATH). Native locus only. */
  env?: Record<string, string>;
  locus: CodexLocus;
  /** The codex file as found (in the locus's own path syntax). Never resolved to a symlink target. */
  path: string;
  /** Parsed from `--version`, e.g. `0.171.0`. */
  version: string | null;
  source: CandidateSource;
  launch: LaunchMode;
}

/** A {@link LaunchSpec} that may need `windowsVerbatimArguments` (the `cmd.exe` form). */
export interface CodexLaunchSpec extends LaunchSpec {
  /** Must be passed to `child_process.spawn` as is: the `cmd.exe` command line is already escaped. */
  windowsVerbatimArguments?: boolean;
}

export interface CodexLaunchOptions {
  /** The working directory as the caller knows it; for a WSL locus it is mapped with {@link toLaunchCwd}. */
  cwd?: string;
  /** Extra variables for Codex (for WSL they are passed inside the distribution through `/usr/bin/env`). */
  env?: Record<string, string>;
  /** The environment the child inherits; defaults to `process.env`. */
  baseEnv?: NodeJS.ProcessEnv;
  /** `cmd.exe` for `windows-cmd`; defaults to `%ComSpec%` of `baseEnv`, then `cmd.exe`. */
  comspec?: string;
}

/**
 * The exact spawn for `codex <codexArgs>` with a chosen command. Pure. Throws {@link LaunchCwdError} when the
 * cwd cannot be expressed in the command's locus (before anything is spawned).
 */
export function codexLaunchSpec(
  codex: CodexCommand,
  codexArgs: readonly string[],
  options: CodexLaunchOptions = {},
): CodexLaunchSpec {
  const baseEnv = options.baseEnv ?? process.env;
  if (codex.locus.type === "wsl") {
    const parsed = parseWslExecArgs(codex.prefixArgs);
    if (!parsed)
      throw new Error(`CodexCommand for WSL has an unexpected prefix: ${JSON.stringify(codex.prefixArgs)}`);
    const args = wslExecArgs({
      distro: parsed.distro,
      cwd: options.cwd === undefined ? undefined : toLaunchCwd(codex, options.cwd),
      env: { ...parsed.env, ...options.env },
      argv: [...parsed.argv, ...codexArgs],
    });
    return { command: codex.command, args, env: { ...baseEnv } };
  }
  const env = { ...baseEnv, ...codex.env, ...options.env };
  const cwd = options.cwd === undefined ? {} : { cwd: options.cwd };
  if (codex.launch === "windows-cmd") {
    const comspec = options.comspec ?? envValue(baseEnv, "ComSpec") ?? "cmd.exe";
    const cmd = windowsCmdLaunch(codex.command, [...codex.prefixArgs, ...codexArgs], comspec);
    return { ...cmd, ...cwd, env };
  }
  return { command: codex.command, args: [...codex.prefixArgs, ...codexArgs], ...cwd, env };
}

/**
 * The cwd to give a launch and `thread/start`/`turn/start` for this command. Native: unchanged. WSL:
 * `\\wsl.localhost\<distro>\home\x` or `\\wsl$\<distro>\home\x` becomes `/home/x`; a POSIX path is kept;
 * anything else (a drive path, another distribution) throws {@link LaunchCwdError}.
 */
export function toLaunchCwd(command: Pick<CodexCommand, "locus">, cwd: string): string {
  if (command.locus.type === "native") return cwd;
  const distro = command.locus.distro;
  if (cwd.startsWith("/") && !cwd.startsWith("//")) return cwd;
  const parsed = parseWslUncPath(cwd);
  if (!parsed) {
    throw new LaunchCwdError(
      cwd,
      distro,
      `"${cwd}" is not inside the WSL distribution "${distro}": open the repository through ` +
        `\\\\wsl.localhost\\${distro}\\… or choose a Codex installed on Windows (--codex-bin)`,
    );
  }
  if (parsed.distro.toLowerCase() !== distro.toLowerCase()) {
    throw new LaunchCwdError(
      cwd,
      distro,
      `"${cwd}" is in the WSL distribution "${parsed.distro}", but the chosen Codex runs in "${distro}": ` +
        `run discovery for this repository again`,
    );
  }
  return parsed.linuxPath;
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toLowerCase() === wanted && value) return value;
  }
  return undefined;
}
