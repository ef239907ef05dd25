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
 * The overrides every app-server Rennet starts carries, before the caller's arguments:
 * `features.skill_mcp_dependency_install=false`. With that feature (on by default from 0.120) a prompt that
 * mentions a skill whose `agents/openai.yaml` declares an MCP server makes codex, under approval policy `never`
 * and without asking, write that server into the user's `config.toml`, contact its URL and start it for the
 * thread, whatever the MCP policy and although the skill may come from an untrusted repository's
 * `.agents/skills/` (measured 0.120-0.171 whenever codex takes the originator for its own, e.g. with
 * `CODEX_INTERNAL_ORIGINATOR_OVERRIDE` in the environment). A config override, because every supported codex
 * accepts an unknown feature key there (as with `features.plugins`).
 */
const APP_SERVER_BASE_ARGS = ["-c", "features.skill_mcp_dependency_install=false"] as const;

/**
 * `codex app-server <base args> <args…>` in `cwd`, on top of `env`. Pure; throws `LaunchCwdError` when the cwd cannot be
 * expressed inside the WSL distribution of a WSL codex.
 */
export function appServerLaunch(
  codex: CodexLaunch,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): AppServerLaunch {
  return {
    spec: codexLaunchSpec(codex, ["app-server", ...APP_SERVER_BASE_ARGS, ...args], {
      cwd: options.cwd,
      baseEnv: options.env,
    }),
    protocolCwd: protocolCwd(codex, options.cwd),
    protocolPath: (file) => protocolCwd(codex, file),
  };
}
