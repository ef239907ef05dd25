import { describeValue, InvalidOptionsError } from "../../call/option-keys.js";
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

export type CodexLaunchOptions = LaunchOptions;

/** How launch errors name Codex. */
export const CODEX_NAMING: LaunchNaming = { name: "Codex", explicitFlag: "--codex-bin" };

/**
 * The exact spawn for `codex <codexArgs>`: the only argv builder for Codex (the neutral one, with Codex's
 * wording). Pure. Throws `LaunchCwdError` when the cwd cannot be expressed in a WSL distribution (before
 * anything is spawned).
 */
export function codexLaunchSpec(
  launch: CodexLaunch,
  codexArgs: readonly string[],
  options: CodexLaunchOptions = {},
): LaunchSpec {
  return launchSpec(launch, codexArgs, options, CODEX_NAMING);
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
