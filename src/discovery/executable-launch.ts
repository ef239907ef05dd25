import type { LaunchSpec } from "../process/stdio-child.js";
import { absoluteCommand } from "./command-path.js";
import type { CandidateSource } from "./discovery-types.js";
import { absoluteWindowsPath, windowsEnvValue, windowsSystemExecutable } from "../windows-env.js";
import { LaunchCwdError } from "./launch-cwd-error.js";
import { withSearchablePath } from "./platform-env.js";
import { windowsCmdLaunch } from "./windows-cmd.js";
import { parseWslUncPath, wslExecArgs } from "./wsl-locus.js";

/** Variables set for the child on top of the inherited environment (e.g. the login-shell PATH). */
type ExtraEnv = Readonly<Record<string, string>>;

/**
 * How one executable is started. Every form becomes a spawn through {@link launchSpec}; nothing else builds an
 * argv for a launch.
 * - `native`: the file itself (a native binary, a shim, or a script whose interpreter is on the PATH);
 * - `node-launcher`: a node script run by an explicit `node` (the one beside it);
 * - `windows-cmd`: a `.cmd` batch shim, run through `cmd.exe /d /e:on /v:off /s /c` with escaped arguments;
 * - `wsl`: `argv` run inside a WSL distribution through `wsl.exe --exec`, with `env` set inside it.
 */
export type ExecutableLaunch =
  | { type: "native"; command: string; env?: ExtraEnv }
  | { type: "node-launcher"; node: string; script: string; env?: ExtraEnv }
  | { type: "windows-cmd"; shim: string; env?: ExtraEnv }
  | { type: "wsl"; wslExe: string; distro: string; argv: readonly string[]; env?: ExtraEnv };

/** Where an executable came from: a discovery source, or `explicit` (a path the caller gave). */
export type ExecutableSource = CandidateSource | "explicit";

/** One executable, ready to launch: what discovery chooses, or what an explicit path becomes. JSON-serializable. */
export interface ResolvedExecutable {
  launch: ExecutableLaunch;
  /** The file as found or given (in its locus's own path syntax). Never resolved to a symlink target. */
  path: string;
  /** The version it reported (e.g. `0.171.0`); null when not known yet. */
  version: string | null;
  source: ExecutableSource;
}

/** What the messages of a launch call the program (`{ name: "Tool", explicitFlag: "--tool-bin" }`). */
export interface LaunchNaming {
  name: string;
  /** The option that gives a path explicitly, named in the hint of an unmappable cwd. */
  explicitFlag?: string;
}

const GENERIC_NAMING: LaunchNaming = { name: "program" };

export interface LaunchOptions {
  /** The working directory as this machine knows it; for WSL it is mapped with {@link locusCwd}. */
  cwd?: string | undefined;
  /** The environment the child inherits. Default: `process.env`. */
  baseEnv?: NodeJS.ProcessEnv | undefined;
  /**
   * `cmd.exe` for `windows-cmd`; defaults to `%ComSpec%` of `baseEnv` when absolute, then
   * `%SystemRoot%\System32\cmd.exe` (never a bare or relative `cmd.exe`, which Windows would look up in the
   * repository, the spawn's cwd, first).
   */
  comspec?: string | undefined;
}

/**
 * A path given by the caller, used as given (no discovery, no probe): a `.cmd`/`.bat` shim on Windows runs
 * through `cmd.exe`, anything else directly. A relative path is resolved against the process's current directory
 * ({@link absoluteCommand}), so the file is the same whatever directory the child starts in (the repository, which
 * could hold a file at that relative path); a bare name is left to the spawn. Pure apart from reading the
 * current directory.
 */
export function explicitExecutable(
  given: string,
  platform: NodeJS.Platform = process.platform,
): ResolvedExecutable {
  const file = absoluteCommand(given, platform);
  const shim = platform === "win32" && /\.(?:cmd|bat)$/i.test(file);
  return {
    launch: shim ? { type: "windows-cmd", shim: file } : { type: "native", command: file },
    path: file,
    version: null,
    source: "explicit",
  };
}

/**
 * The exact spawn for `<launch> <args>`; on POSIX the child's PATH holds absolute entries only
 * (`withSearchablePath`). Pure. Throws {@link LaunchCwdError} when the cwd cannot be expressed
 * in a WSL distribution (before anything is spawned); `naming` words its message.
 */
export function launchSpec(
  launch: ExecutableLaunch,
  args: readonly string[],
  options: LaunchOptions = {},
  naming: LaunchNaming = GENERIC_NAMING,
): LaunchSpec {
  const baseEnv = options.baseEnv ?? process.env;
  const cwd = options.cwd === undefined ? {} : { cwd: options.cwd };
  const env = { ...baseEnv, ...launch.env };
  // the child starts in the repository: no PATH entry may name a directory of it (the Windows forms run on Windows)
  const posixEnv = withSearchablePath(env, process.platform);
  switch (launch.type) {
    case "native":
      return { command: launch.command, args: [...args], ...cwd, env: posixEnv };
    case "node-launcher":
      return { command: launch.node, args: [launch.script, ...args], ...cwd, env: posixEnv };
    case "windows-cmd": {
      const comspec =
        options.comspec ??
        absoluteWindowsPath(windowsEnvValue(baseEnv, "ComSpec")) ??
        windowsSystemExecutable("cmd.exe", baseEnv);
      return { ...windowsCmdLaunch(launch.shim, args, comspec), ...cwd, env };
    }
    case "wsl": {
      const wslArgs = wslExecArgs({
        distro: launch.distro,
        cwd: options.cwd === undefined ? undefined : locusCwd(launch, options.cwd, naming),
        env: { ...launch.env },
        argv: [...launch.argv, ...args],
      });
      return { command: launch.wslExe, args: wslArgs, env: { ...baseEnv } };
    }
  }
}

/**
 * The cwd as the launched program sees it. Native: unchanged. WSL: `\\wsl.localhost\<distro>\home\x` or
 * `\\wsl$\<distro>\home\x` becomes `/home/x`; a POSIX path is kept; anything else (a drive path, another
 * distribution) throws {@link LaunchCwdError}, worded with `naming`. Pure.
 */
export function locusCwd(
  launch: ExecutableLaunch,
  cwd: string,
  naming: LaunchNaming = GENERIC_NAMING,
): string {
  if (launch.type !== "wsl") return cwd;
  const distro = launch.distro;
  if (cwd.startsWith("/") && !cwd.startsWith("//")) return cwd;
  const parsed = parseWslUncPath(cwd);
  if (!parsed) {
    const flag = naming.explicitFlag === undefined ? "" : ` (${naming.explicitFlag})`;
    throw new LaunchCwdError(
      cwd,
      distro,
      `"${cwd}" is not inside the WSL distribution "${distro}": open the repository through ` +
        `\\\\wsl.localhost\\${distro}\\… or choose a ${naming.name} installed on Windows${flag}`,
    );
  }
  if (parsed.distro.toLowerCase() !== distro.toLowerCase()) {
    throw new LaunchCwdError(
      cwd,
      distro,
      `"${cwd}" is in the WSL distribution "${parsed.distro}", but the chosen ${naming.name} runs in "${distro}": ` +
        `run discovery for this repository again`,
    );
  }
  return parsed.linuxPath;
}

/** The launch as one display line (`node /x/cli.js --version`), for reports. Pure. */
export function describeLaunch(launch: ExecutableLaunch, args: readonly string[] = []): string {
  const argv =
    launch.type === "native"
      ? [launch.command]
      : launch.type === "node-launcher"
        ? [launch.node, launch.script]
        : launch.type === "windows-cmd"
          ? [launch.shim]
          : [launch.wslExe, "-d", launch.distro, "--exec", ...launch.argv];
  return [...argv, ...args].map(quoteForDisplay).join(" ");
}

/** The executable a launch starts first (for spawn failures). Pure. */
export function launchExecutable(launch: ExecutableLaunch): string {
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
