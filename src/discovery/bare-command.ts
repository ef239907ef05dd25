import { absoluteCommand, isBareCommand } from "./command-path.js";
import type { FileInfo } from "./locus-host.js";
import { inspectNative } from "./native-host.js";
import { envGet, pathApi, pathEntries, unsearchableDirReason } from "./platform-env.js";

/** Extensions a Windows spawn of a bare name would try, in the order tried here. */
const WINDOWS_EXTENSIONS = [".exe", ".cmd", ".bat", ".com"];

/** Why a bare name given as the executable was not found by {@link findBareCommand}. */
export const BARE_COMMAND_NOT_FOUND =
  "not found in any absolute PATH directory (relative PATH entries are not searched)";

/**
 * The file a command given by the caller (a client option, `--<harness>-bin`) names: a bare name
 * is looked up by {@link findBareCommand} (null when not found); a relative path is resolved once against `base`,
 * the process's current directory, where it is checked, so the spawn, which starts in the repository, runs that
 * same file and never one the repository supplies at the same relative path; an absolute path is kept as given.
 */
export async function explicitCommandFile(
  command: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  base: string = process.cwd(),
): Promise<string | null> {
  if (isBareCommand(command)) return findBareCommand(command, env, platform);
  return absoluteCommand(command, platform, base);
}

/** The file names a bare `name` may stand for on `platform`: on Windows with each executable extension. Pure. */
function bareFileNames(name: string, platform: NodeJS.Platform): string[] {
  if (platform !== "win32") return [name];
  const lower = name.toLowerCase();
  if (WINDOWS_EXTENSIONS.some((extension) => lower.endsWith(extension))) return [name];
  return WINDOWS_EXTENSIONS.map((extension) => `${name}${extension}`);
}

/**
 * The executable a bare command name given by the caller (`--<harness>-bin agent`) stands for: the first executable
 * file of that name in the absolute directories of `env`'s PATH, in order; null when none has one. Relative
 * entries (`.`, `bin`, an empty one) are not searched, as discovery does not search them: the spawn would
 * resolve them against the directory the child starts in, the repository, which could then supply the
 * executable. `inspect` looks at one path (default: this machine's file system). Never throws.
 */
export async function findBareCommand(
  name: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  inspect: (path: string) => Promise<FileInfo | null> = (path) => inspectNative(platform, path),
): Promise<string | null> {
  const dirs = pathEntries(envGet(env, "PATH", platform), platform).filter(
    (dir) => unsearchableDirReason(dir, platform) === null,
  );
  for (const dir of dirs) {
    for (const file of bareFileNames(name, platform)) {
      const path = pathApi(platform).join(dir, file);
      const info = await inspect(path);
      if (info?.kind === "file" && info.executable) return path;
    }
  }
  return null;
}
