import path from "node:path";
import { describeValue, InvalidOptionsError } from "../../call/option-keys.js";
import { envGet } from "../../discovery/platform-env.js";
import type { LaunchSpec } from "../../process/stdio-child.js";
import {
  explicitExecutable,
  launchSpec,
  locusCwd,
  type ExecutableLaunch,
  type ExecutableSource,
  type LaunchNaming,
  type LaunchOptions,
  type ResolvedExecutable,
} from "../../discovery/executable-launch.js";

/**
 * How one Codex is started (the harness-neutral launch union): `native` (the file itself), `node-launcher` (npm's
 * `codex.js` run by the `node` beside it), `windows-cmd` (a `codex.cmd` shim through `cmd.exe`), `wsl` (inside a
 * WSL distribution through `wsl.exe --exec`). {@link codexLaunchSpec} turns it into a spawn.
 */
export type CodexLaunch = ExecutableLaunch;

/** Where a Codex came from: a discovery source, or `explicit` (a path the caller gave). */
export type CodexSource = ExecutableSource;

/** One Codex, ready to launch: what discovery chooses, or what an explicit path becomes. JSON-serializable. */
export type ResolvedCodex = ResolvedExecutable;

/** Options of `codexLaunchSpec()`: the working directory, the environment and (on Windows) the `cmd.exe` of the launch. */
export type CodexLaunchOptions = LaunchOptions;

/** How launch errors name Codex. */
export const CODEX_NAMING: LaunchNaming = { name: "Codex", explicitFlag: "--codex-bin" };

/**
 * The exact spawn for `codex <codexArgs>`: the only argv builder for Codex (the neutral one, with Codex's
 * wording). A relative `CODEX_HOME` of `baseEnv` is made absolute against the process's current directory (see
 * {@link absoluteCodexHome}). Pure but for reading that directory. Throws `LaunchCwdError` when the cwd cannot be
 * expressed in a WSL distribution (before anything is spawned).
 */
export function codexLaunchSpec(
  launch: CodexLaunch,
  codexArgs: readonly string[],
  options: CodexLaunchOptions = {},
): LaunchSpec {
  const baseEnv = options.baseEnv ?? process.env;
  const codexHome = launch.type === "wsl" ? null : absoluteCodexHome(baseEnv);
  const resolved =
    codexHome === null ? options : { ...options, baseEnv: { ...baseEnv, CODEX_HOME: codexHome } };
  return launchSpec(launch, codexArgs, resolved, CODEX_NAMING);
}

/**
 * The absolute path a relative `CODEX_HOME` of `env` names from the process's current directory, or null when it
 * is unset or already absolute. codex resolves a relative one against its own working directory, the repository,
 * which could then supply the user's config (MCP servers, trust entries); Rennet reads it from this directory
 * (`codexHomeOf`), and the child gets the same absolute path.
 */
function absoluteCodexHome(env: NodeJS.ProcessEnv): string | null {
  const value = envGet(env, "CODEX_HOME", process.platform);
  return value === undefined || path.isAbsolute(value) ? null : path.resolve(value);
}

/**
 * The cwd as Codex sees it (for `thread/start`, `turn/start` and `--cd`). Native: unchanged. WSL:
 * `\\wsl.localhost\<distro>\home\x` or `\\wsl$\<distro>\home\x` becomes `/home/x`; a POSIX path is kept;
 * anything else (a drive path, another distribution) throws `LaunchCwdError`. Pure.
 */
export function protocolCwd(launch: CodexLaunch, cwd: string): string {
  return locusCwd(launch, cwd, CODEX_NAMING);
}

/**
 * A path given by the caller, used as given (no discovery, no probe): a `.cmd`/`.bat` shim on Windows runs
 * through `cmd.exe`, anything else directly; a relative path is resolved against the process's current directory,
 * never against the directory the child starts in. Throws `InvalidOptionsError` (`OPTIONS_INVALID`) for a `file`
 * that is not a non-empty string. Pure apart from reading the current directory.
 */
export function explicitCodex(file: string, platform: NodeJS.Platform = process.platform): ResolvedCodex {
  const given: unknown = file;
  if (typeof given !== "string" || given === "")
    throw new InvalidOptionsError(
      "OPTIONS_INVALID",
      `explicitCodex(path) takes the path of a codex executable, got ${describeValue(given)}`,
    );
  return explicitExecutable(file, platform);
}
