import { explicitCodex, type ResolvedCodex } from "./codex-launch.js";
import { CodexUnavailableError } from "../codex-unavailable-error.js";
import type { FileInfo } from "../../discovery/locus-host.js";
import { BARE_COMMAND_NOT_FOUND, explicitCommandFile } from "../../discovery/bare-command.js";
import { explicitFileProblem } from "../../discovery/explicit-file-problem.js";
import { inspectNative } from "../../discovery/native-host.js";
import { companionOf } from "../../discovery/candidates.js";
import { codexCompanions } from "./codex-files.js";
import { findNpmNative, NPM_LAUNCHER_MARKER, npmManagedEnv } from "./npm-native.js";

/**
 * A path given by the caller (`createCodex({codex})`, `--codex-bin`), inspected once: a file that is
 * missing, a directory or not executable is {@link CodexUnavailableError} before anything is spawned (the CLI
 * exits 3 with the same words in every command). A bare name (`codex`) is looked up in the absolute directories
 * of `env`'s PATH and a relative path resolved against the process's current directory (`explicitCommandFile`),
 * never in the repository the child starts in. When the file is npm's launcher script (`…/@openai/codex/bin/codex.js`, through any symlink) and the
 * native binary that script would start is there, that binary is launched directly with the variables the
 * launcher sets (see {@link npmNativeLaunchBehind}). On Windows npm's `codex.cmd` becomes the package's native
 * `codex.exe` it would start, as discovery ranks it (`codexCompanions`), so no `cmd.exe` re-parses the arguments;
 * without that file the shim runs through `cmd.exe`. Anything else is launched exactly as given.
 */
export async function usableExplicitCodex(
  given: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedCodex> {
  const file = await explicitCommandFile(given, env, platform);
  if (file === null) throw new CodexUnavailableError(null, unavailable(given, BARE_COMMAND_NOT_FOUND));
  const resolved = explicitCodex(file, platform);
  const info = await inspectNative(platform, file, NPM_LAUNCHER_MARKER);
  const problem = await explicitFileProblem(file, info, platform);
  if (info === null || problem !== null) {
    throw new CodexUnavailableError(null, unavailable(file, problem));
  }
  const inspect = (paths: readonly string[]): Promise<(FileInfo | null)[]> =>
    Promise.all(paths.map((path) => inspectNative(platform, path)));
  const exe = await companionOf(file, info, {
    spec: { companions: codexCompanions },
    platform,
    arch: process.arch,
    inspect,
  });
  if (exe !== null) return { ...resolved, launch: { type: "native", command: exe.info.path } };
  const native = await nativeLaunchFor(info, platform, process.arch);
  return native ? { ...resolved, launch: native } : resolved;
}

function unavailable(file: string, problem: string | null): string {
  return (
    `Codex is unavailable: ${file}: ${problem}. Pass the path of a working codex executable, or install Codex ` +
    "(npm i -g @openai/codex)."
  );
}

/**
 * The launch of the native binary npm's launcher script at `file` would start, or null when `file` is not that
 * script, the binary is not there (executable), or the launcher does more than set two variables: it sets
 * `CODEX_MANAGED_PACKAGE_ROOT` and `CODEX_MANAGED_BY_NPM` and starts the binary (with `execve` on Node ≥ 22.15,
 * otherwise as a child it waits for, so a session would run two processes instead of one); a launcher that does
 * more is kept. The same rule as discovery's (`findNpmNative`), on this machine's files. Never throws.
 */
export async function npmNativeLaunchBehind(
  file: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): Promise<{ type: "native"; command: string; env: Record<string, string> } | null> {
  const info = await inspectNative(platform, file, NPM_LAUNCHER_MARKER);
  return info === null ? null : nativeLaunchFor(info, platform, arch);
}

/** {@link npmNativeLaunchBehind} for a file already inspected. */
async function nativeLaunchFor(
  info: FileInfo,
  platform: NodeJS.Platform,
  arch: string,
): Promise<{ type: "native"; command: string; env: Record<string, string> } | null> {
  const inspect = (paths: readonly string[]): Promise<(FileInfo | null)[]> =>
    Promise.all(paths.map((path) => inspectNative(platform, path, NPM_LAUNCHER_MARKER)));
  const native = await findNpmNative(info, inspect, platform, arch);
  return native
    ? { type: "native", command: native.binary.path, env: npmManagedEnv(native.packageRoot) }
    : null;
}
