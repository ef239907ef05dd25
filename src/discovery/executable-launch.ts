import type { LaunchSpec } from "../process/stdio-child.js";
import type { CandidateSource } from "./discovery-types.js";
import { LaunchCwdError } from "./launch-cwd-error.js";
import { windowsCmdLaunch } from "./windows-cmd.js";
import { parseWslUncPath, wslExecArgs } from "./wsl-locus.js";

/** Variables set for Codex on top of the inherited environment (e.g. the login-shell PATH). */
type ExtraEnv = Readonly<Record<string, string>>;

/**
 * How one Codex is started. Every form becomes a spawn through {@link codexLaunchSpec}; nothing else builds
 * an argv for Codex.
 * - `native`: the file itself (a native binary, a shim, or a script whose interpreter is on the PATH);
 * - `node-launcher`: the npm `codex.js` script run by an explicit `node` (the one beside it);
 * - `windows-cmd`: a `codex.cmd` batch shim, run through `cmd.exe /d /s /c` with escaped arguments;
 * - `wsl`: `argv` run inside a WSL distribution through `wsl.exe --exec`, with `env` set inside it.
 */
export type CodexLaunch =
  | { type: "native"; command: string; env?: ExtraEnv }
  | { type: "node-launcher"; node: string; script: string; env?: ExtraEnv }
  | { type: "windows-cmd"; shim: string; env?: ExtraEnv }
  | { type: "wsl"; wslExe: string; distro: string; argv: readonly string[]; env?: ExtraEnv };

/** Where a Codex came from: a discovery source, or `explicit` (a path the caller gave). */
export type CodexSource = CandidateSource | "explicit";

/** One Codex, ready to launch: what discovery chooses, or what an explicit path becomes. JSON-serializable. */
export interface ResolvedCodex {
  launch: CodexLaunch;
  /** The codex file as found or given (in its locus's own path syntax). Never resolved to a symlink target. */
  path: string;
  /** Parsed from `--version` or the `initialize` user agent, e.g. `0.171.0`; null when not known yet. */
  version: string | null;
  source: CodexSource;
}

export interface CodexLaunchOptions {
  /** The working directory as this machine knows it; for WSL it is mapped with {@link protocolCwd}. */
  cwd?: string;
  /** The environment the child inherits. Default: `process.env`. */
  baseEnv?: NodeJS.ProcessEnv;
  /** `cmd.exe` for `windows-cmd`; defaults to `%ComSpec%` of `baseEnv`, then `cmd.exe`. */
  comspec?: string;
}

/**
 * A path given by the caller, used exactly as given (no discovery, no probe): a `.cmd`/`.bat` shim on Windows
 * runs through `cmd.exe`, anything else directly. Pure.
 */
export function explicitCodex(file: string, platform: NodeJS.Platform = process.platform): ResolvedCodex {
  const shim = platform === "win32" && /\.(?:cmd|bat)$/i.test(file);
  return {
    launch: shim ? { type: "windows-cmd", shim: file } : { type: "native", command: file },
    path: file,
    version: null,
    source: "explicit",
  };
}

/**
 * The exact spawn for `codex <codexArgs>`. Pure. Throws {@link LaunchCwdError} when the cwd cannot be
 * expressed in a WSL distribution (before anything is spawned).
 */
export function codexLaunchSpec(
  launch: CodexLaunch,
  codexArgs: readonly string[],
  options: CodexLaunchOptions = {},
): LaunchSpec {
  const baseEnv = options.baseEnv ?? process.env;
  const cwd = options.cwd === undefined ? {} : { cwd: options.cwd };
  const env = { ...baseEnv, ...launch.env };
  switch (launch.type) {
    case "native":
      return { command: launch.command, args: [...codexArgs], ...cwd, env };
    case "node-launcher":
      return { command: launch.node, args: [launch.script, ...codexArgs], ...cwd, env };
    case "windows-cmd": {
      const comspec = options.comspec ?? envValue(baseEnv, "ComSpec") ?? "cmd.exe";
      return { ...windowsCmdLaunch(launch.shim, codexArgs, comspec), ...cwd, env };
    }
    case "wsl": {
      const args = wslExecArgs({
        distro: launch.distro,
        cwd: options.cwd === undefined ? undefined : protocolCwd(launch, options.cwd),
        env: { ...launch.env },
        argv: [...launch.argv, ...codexArgs],
      });
      return { command: launch.wslExe, args, env: { ...baseEnv } };
    }
  }
}

/**
 * The cwd as Codex sees it (for `thread/start`, `turn/start` and `--cd`). Native: unchanged. WSL:
 * `\\wsl.localhost\<distro>\home\x` or `\\wsl$\<distro>\home\x` becomes `/home/x`; a POSIX path is kept;
 * anything else (a drive path, another distribution) throws {@link LaunchCwdError}. Pure.
 */
export function protocolCwd(launch: CodexLaunch, cwd: string): string {
  if (launch.type !== "wsl") return cwd;
  const distro = launch.distro;
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

/** The launch as one display line (`node /x/codex.js app-server`), for reports. Pure. */
export function describeLaunch(launch: CodexLaunch, codexArgs: readonly string[] = []): string {
  const argv =
    launch.type === "native"
      ? [launch.command]
      : launch.type === "node-launcher"
        ? [launch.node, launch.script]
        : launch.type === "windows-cmd"
          ? [launch.shim]
          : [launch.wslExe, "-d", launch.distro, "--exec", ...launch.argv];
  return [...argv, ...codexArgs].map(quoteForDisplay).join(" ");
}

/** The executable a launch starts first (for spawn failures). Pure. */
export function launchExecutable(launch: CodexLaunch): string {
  switch (launch.type) {
    case "native":
      return launch.command;
    case "node-launcher":
      return launch.node;
    case "windows-cmd":
      return launch.shim;
    case "wsl":
      return launch.wslExe;
  }
}

function quoteForDisplay(arg: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toLowerCase() === wanted && value) return value;
  }
  return undefined;
}
