import { explicitExecutable, type ResolvedExecutable } from "../../discovery/executable-launch.js";
import type { FileInfo } from "../../discovery/locus-host.js";
import { BARE_COMMAND_NOT_FOUND, explicitCommandFile } from "../../discovery/bare-command.js";
import { explicitFileProblem } from "../../discovery/explicit-file-problem.js";
import { inspectNative } from "../../discovery/native-host.js";
import { MINIMUM_SUPPORTED_CLAUDE } from "../capabilities.js";
import { ClaudeUnavailableError, CLAUDE_INSTALL_HINT } from "../claude-unavailable-error.js";
import { ClaudeUnsupportedVersionError } from "../errors.js";
import { npmClaudeExeBehindCmd } from "./claude-files.js";
import { CLAUDE_VERSION_HEADER, isSupportedClaudeVersion } from "./claude-spec.js";
import { npmStubPreferredLaunch } from "./npm-native-claude.js";

/**
 * A path given by the caller (`createClaudeCode({ claude })`, `--claude-bin`), checked without running it: no
 * discovery, no probe, no login shell. A file that is missing, a directory or not executable is a
 * {@link ClaudeUnavailableError}; a `cli.js` whose `// Version:` header names a release older than the oldest
 * supported is a {@link ClaudeUnsupportedVersionError} (its `--version` would write files). A bare name
 * (`claude`) is looked up in the absolute directories of `env`'s PATH and a relative path resolved against the
 * process's current directory (`explicitCommandFile`), never in the repository the child starts in. On Windows npm's `claude.cmd` becomes the package's
 * `claude.exe` it would start (no `cmd.exe`); npm's placeholder `bin/claude.exe` (an install whose postinstall did
 * not run) becomes the platform package's binary. Anything else is launched exactly as given. `version` is the
 * header's when a script states one, else null.
 */
export async function usableExplicitClaude(
  named: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedExecutable> {
  const file = await explicitCommandFile(named, env, platform);
  if (file === null) throw new ClaudeUnavailableError(null, unavailable(named, BARE_COMMAND_NOT_FOUND));
  const given = await inspect(platform, file);
  const problem = await explicitFileProblem(file, given, platform);
  if (given === null || problem !== null) throw new ClaudeUnavailableError(null, unavailable(file, problem));
  const stated = given.statedVersion;
  if (stated !== undefined && !isSupportedClaudeVersion(stated))
    throw new ClaudeUnsupportedVersionError(stated, MINIMUM_SUPPORTED_CLAUDE, null);
  const exe =
    platform === "win32" && /\.cmd$/i.test(file)
      ? await inspect(platform, npmClaudeExeBehindCmd(file))
      : null;
  const target = exe?.kind === "file" ? exe : given;
  const preferred = await npmStubPreferredLaunch(
    target,
    (paths) => inspectAll(platform, paths),
    platform,
    arch,
  );
  const resolved = explicitExecutable(target.path, platform);
  return {
    ...resolved,
    ...(preferred ? { launch: { type: "native", command: preferred.binary.path } } : {}),
    path: file,
    version: stated ?? null,
  };
}

function unavailable(file: string, problem: string | null): string {
  return (
    `Claude Code is unavailable: ${file}: ${problem}. Pass the path of a working claude executable, or install ` +
    `Claude Code (${CLAUDE_INSTALL_HINT}).`
  );
}

function inspect(platform: NodeJS.Platform, file: string): Promise<FileInfo | null> {
  return inspectNative(platform, file, undefined, CLAUDE_VERSION_HEADER);
}

function inspectAll(platform: NodeJS.Platform, paths: readonly string[]): Promise<(FileInfo | null)[]> {
  return Promise.all(paths.map((path) => inspect(platform, path)));
}
