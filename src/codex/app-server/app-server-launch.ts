import type { LaunchSpec } from "../../process/stdio-child.js";
import { codexLaunchSpec, protocolCwd, type CodexLaunch } from "../launch/codex-launch.js";

/** The spawn of an app-server and the working directory as that codex sees it. */
export interface AppServerLaunch {
  spec: LaunchSpec;
  /** `cwd` as codex sees it (a WSL path for a codex inside WSL); what requests name. */
  protocolCwd: string;
  /** A path on this machine as codex sees it (an image of a request); throws `LaunchCwdError` like the cwd. */
  protocolPath(file: string): string;
}

/**
 * `codex app-server <args…>` in `cwd`, on top of `env`. Pure; throws `LaunchCwdError` when the cwd cannot be
 * expressed inside the WSL distribution of a WSL codex.
 */
export function appServerLaunch(
  codex: CodexLaunch,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): AppServerLaunch {
  return {
    spec: codexLaunchSpec(codex, ["app-server", ...args], { cwd: options.cwd, baseEnv: options.env }),
    protocolCwd: protocolCwd(codex, options.cwd),
    protocolPath: (file) => protocolCwd(codex, file),
  };
}
